import { fileURLToPath } from "node:url";
import { migrateDatabase } from "@auth/pg";
import { schema } from "./schema.js";

await migrateDatabase("audit", schema, fileURLToPath(new URL("../drizzle", import.meta.url)));
