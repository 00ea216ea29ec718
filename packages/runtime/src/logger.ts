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

export function createLogger(name: string, level: string): Logger {
  return pino({
    level,
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: redactedPaths, censor: "[redacted]" },
    // Lines written while a traced request is under way carry its trace id.
    mixin: () => {
      const traceId = activeTraceId();
      return traceId ? { traceId } : {};
    },
  });
}
