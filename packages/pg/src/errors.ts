import { AuthError } from "@auth/errors";
import { metrics } from "@auth/telemetry";

// SQLSTATE classes and socket errors that mean "the database is not there right now". 57014 is a
// statement the pool's statement_timeout cancelled (nothing else here cancels one): a database that
// was frozen or overloaded did not answer in time.
const unavailableCodes = new Set([
  "57014",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
]);

function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (unavailableCodes.has(code) || code.startsWith("08"))) return true;
  if (
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i.test(
      error.message,
    )
  ) {
    return true;
  }
  return error.cause !== undefined && isUnavailable(error.cause);
}

/** `service.unavailable` for an error that says the database cannot be reached. */
export function translateDatabaseError(error: unknown): AuthError | undefined {
  if (!isUnavailable(error)) return undefined;
  metrics.storeErrors.inc({ store: "postgres" });
  return new AuthError("service.unavailable", { detail: "database unavailable", cause: error });
}

/** True when the error, or one it wraps (Drizzle wraps the driver's), carries that SQLSTATE. */
function hasSqlState(error: unknown, sqlState: string): boolean {
  if (!(error instanceof Error)) return false;
  if ((error as { code?: unknown }).code === sqlState) return true;
  return error.cause !== undefined && hasSqlState(error.cause, sqlState);
}

/** True for a unique-constraint violation (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown): boolean => hasSqlState(error, "23505");

/**
 * True for a transaction PostgreSQL aborted to break a deadlock (SQLSTATE 40P01): nothing of it was
 * written, and it may be tried again.
 */
export const isDeadlock = (error: unknown): boolean => hasSqlState(error, "40P01");
