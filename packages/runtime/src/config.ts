import { z } from "zod";

/** Values of these variables may hold credentials: they are named in errors, never shown. */
const secretName = /SECRET|PASSWORD|KEY|TOKEN|URL|CREDENTIAL/i;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Reads a process's configuration from the environment. Every problem is named in one line,
 * for example `GRPC_PORT: expected a number from 1 to 65535, got "x"`.
 */
export function parseConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join(".") || "environment";
    const value = env[name];
    return value === undefined || secretName.test(name)
      ? `${name}: ${issue.message}`
      : `${name}: ${issue.message}, got "${value}"`;
  });
  throw new ConfigError(problems.join("; "));
}

/** parseConfig for a process's main: a bad configuration stops the process with one line. */
export function loadConfig<S extends z.ZodType>(
  processName: string,
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  try {
    return parseConfig(schema, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${processName}: invalid configuration: ${error.message}\n`);
    process.exit(78); // EX_CONFIG
  }
}

const adminTokenSha256Hint =
  'the SHA-256 of the admin token in hex, printf %s "$ADMIN_TOKEN" | sha256sum (docs/operations.md, "The admin token")';

/** Building blocks shared by the processes' schemas. */
export const env = {
  port: (fallback: number) =>
    z.coerce
      .number({ error: "expected a number from 0 to 65535" })
      .int("expected a number from 0 to 65535")
      .min(0, "expected a number from 0 to 65535")
      .max(65535, "expected a number from 0 to 65535")
      .default(fallback),
  host: (fallback: string) => z.string().min(1, "must not be empty").default(fallback),
  positiveInt: (fallback: number) =>
    z.coerce
      .number({ error: "expected a positive whole number" })
      .int("expected a positive whole number")
      .positive("expected a positive whole number")
      .default(fallback),
  url: (protocols: readonly string[]) =>
    z
      .string({ error: "is required" })
      .refine(
        (value) => URL.canParse(value) && protocols.includes(new URL(value).protocol),
        `expected a ${protocols.map((p) => `${p}//`).join(" or ")} URL`,
      ),
  logLevel: () => z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** A port for something optional: absent means off. */
  optionalPort: () =>
    z.coerce
      .number({ error: "expected a number from 0 to 65535" })
      .int("expected a number from 0 to 65535")
      .min(0, "expected a number from 0 to 65535")
      .max(65535, "expected a number from 0 to 65535")
      .optional(),
  /** The deployment's credential for administrative gRPC calls: only what presents it (authctl, npm start) holds it. */
  adminToken: () =>
    z
      .string({ error: "is required (the credential of administrative calls)" })
      .min(32, "must have at least 32 characters"),
  /**
   * The SHA-256 of the admin token, in hex (ADMIN_TOKEN_SHA256): what a service that only compares
   * the token holds (docs/operations.md, "The admin token").
   */
  adminTokenSha256: () =>
    z
      .string({ error: `is required: ${adminTokenSha256Hint}` })
      .regex(/^[0-9a-fA-F]{64}$/, `expected ${adminTokenSha256Hint}`)
      .transform((hex) => hex.toLowerCase()),
  /**
   * The plain admin token, where ADMIN_TOKEN_SHA256 took its place: refused, so that no deployment
   * leaves it in the environment of a process that only compares it.
   */
  refusedAdminToken: () =>
    z
      .undefined({
        error: `is refused: this process holds only the token's hash; set ADMIN_TOKEN_SHA256 to ${adminTokenSha256Hint} and remove ADMIN_TOKEN`,
      })
      .optional(),
  address: (fallback: string) =>
    z
      .string()
      .regex(
        /^([^\s:]+:\d{1,5}|(dns|ipv4|ipv6|unix):\S+)$/,
        "expected host:port or a gRPC target (dns:///host:port, ipv4:a:p,b:p)",
      )
      .default(fallback),
  /** A 32-byte AES key in base64 (SecretBox); optional: the embedded default makes one (`secretsKeyOf`). */
  secretsKey: () =>
    z
      .string()
      .refine((key) => Buffer.from(key, "base64").length === 32, "must be 32 bytes in base64")
      .optional(),
};
