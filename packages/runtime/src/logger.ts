import { activeTraceId } from "@auth/telemetry";
import { type Logger, pino } from "pino";

export type { Logger };

/** Paths that may hold secrets anywhere in a log line; they are never written out. */
const redactedPaths = [
  "password",
  "new_password",
  "otp",
  "backup_code",
  "control_answer",
  "token",
  "session_token",
  "api_key",
  "apiKey",
  "sessionToken",
  "authorization",
  "secret",
  "*.secret",
  "*.password",
  "*.new_password",
  "*.otp",
  "*.backup_code",
  "*.control_answer",
  "*.token",
  "*.session_token",
  "*.sessionToken",
  "*.api_key",
  "*.apiKey",
  "*.authorization",
  'headers["x-api-key"]',
];

const parameterLines = /^params: .*$/gm;

/**
 * An error as a log line holds it, without the parameters of a failed query (Drizzle puts them in
 * the error's `params`, message and stack): they hold login IDs and other request data.
 */
function serializeError(error: Error): Record<string, unknown> {
  const scrub = (value: unknown): unknown => {
    if (typeof value === "string") return value.replace(parameterLines, "params: [redacted]");
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== "params")
        .map(([key, inner]) => [key, scrub(inner)]),
    );
  };
  return scrub(pino.stdSerializers.err(error)) as Record<string, unknown>;
}

export function createLogger(name: string, level: string, destination?: pino.DestinationStream): Logger {
  const options = {
    level,
    base: { service: name },
    serializers: { err: serializeError },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: redactedPaths, censor: "[redacted]" },
    // Lines written while a traced request is under way carry its trace id.
    mixin: () => {
      const traceId = activeTraceId();
      return traceId ? { traceId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
