import { activeTraceId } from "@auth/telemetry";
import { type Logger, pino } from "pino";
import { serializeError } from "./error-serializer.js";

export type { Logger };

/** Fields that name a user: no log line holds them (docs/security.md, "Abuse of the service"). */
const loginIdFields = ["login_id", "loginId", "normalizedLoginId", "email", "phone"];

/** Paths that may hold secrets anywhere in a log line; they are never written out. */
const redactedPaths = [
  ...loginIdFields,
  ...loginIdFields.map((field) => `*.${field}`),
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
