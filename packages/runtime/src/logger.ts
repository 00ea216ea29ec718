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
  return pino(options, destination ?? standardOutput());
}

/**
 * Standard output, written asynchronously as pino's default is, but with a minimum length: only
 * then does flush(cb) wait for the lines under way (sonic-boom's flush does nothing when minLength
 * is 0). A process that exits once they are out never leaves pino's exit handler writing them to an
 * output nobody reads any more (a launcher gone), which sonic-boom 4 retries for ever on EPIPE.
 */
const standardOutput = () => pino.destination({ dest: 1, minLength: 1 });
