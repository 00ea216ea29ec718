import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configSchema as audit } from "@auth/audit/config";
import { configSchema as disclaimer } from "@auth/disclaimer/config";
import { configSchema as gateway } from "@auth/gateway/config";
import { ensureDevPki, type TlsFiles } from "@auth/grpc-kit/dev-pki";
import { configSchema as identity } from "@auth/identity/config";
import { configSchema as otp } from "@auth/otp/config";
import { configSchema as recovery } from "@auth/recovery/config";
import { configSchema as session } from "@auth/session/config";
import type { z } from "zod";

export const processes = [
  "gateway",
  "identity",
  "session",
  "otp",
  "recovery",
  "disclaimer",
  "audit",
] as const;
export type ProcessName = (typeof processes)[number];

/** The configuration schema each process checks its environment against at start-up. */
export const configSchemas: Record<ProcessName, z.ZodType> = {
  gateway,
  identity,
  session,
  otp,
  recovery,
  disclaimer,
  audit,
};

/** The problems a process would stop with, given this environment (empty when it would start). */
export function configProblems(process: ProcessName, env: Record<string, string>): string[] {
  const result = configSchemas[process].safeParse(env);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

/** The processes that keep their state (or rate limits) in Redis, each as an ACL user of its own. */
export const redisServices = ["session", "otp", "recovery", "gateway"] as const;

let testPki: Promise<TlsFiles> | undefined;

/**
 * The environment with its TLS_* files, which must be under `mountDir` (where the deployment mounts
 * the process's certificate), replaced by real ones: the start-up check reads them.
 */
export async function withTestCertificates(
  env: Record<string, string>,
  mountDir: string,
): Promise<Record<string, string>> {
  testPki ??= ensureDevPki(join(mkdtempSync(join(tmpdir(), "infra-checks-pki-")), "pki"), ["gateway"]).then(
    (files) => files.gateway as TlsFiles,
  );
  const files = await testPki;
  const replaced = { ...env };
  for (const [variable, file] of [
    ["TLS_CA_FILE", files.caFile],
    ["TLS_CERT_FILE", files.certFile],
    ["TLS_KEY_FILE", files.keyFile],
  ] as const) {
    if (!env[variable]?.startsWith(`${mountDir}/`)) throw new Error(`${variable} is not under ${mountDir}`);
    replaced[variable] = file;
  }
  return replaced;
}
