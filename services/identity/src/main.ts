// Registered before the service's modules resolve, which a static import of them would do first.
import "@auth/pg/drizzle-resolution";

await import("./start.js");
