import { configSchema as disclaimer } from "@auth/disclaimer/config";
import { configSchema as gateway } from "@auth/gateway/config";
import { configSchema as identity } from "@auth/identity/config";
import { configSchema as otp } from "@auth/otp/config";
import { configSchema as recovery } from "@auth/recovery/config";
import { configSchema as session } from "@auth/session/config";
import type { z } from "zod";

export const processes = ["gateway", "identity", "session", "otp", "recovery", "disclaimer"] as const;
export type ProcessName = (typeof processes)[number];

/** The configuration schema each process checks its environment against at start-up. */
export const configSchemas: Record<ProcessName, z.ZodType> = {
  gateway,
  identity,
  session,
  otp,
  recovery,
  disclaimer,
};

/** The problems a process would stop with, given this environment (empty when it would start). */
export function configProblems(process: ProcessName, env: Record<string, string>): string[] {
  const result = configSchemas[process].safeParse(env);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}
