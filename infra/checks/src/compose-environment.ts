import { readFileSync } from "node:fs";
import type { ComposeService } from "./compose-volumes.js";

const dockerfile = readFileSync(new URL("../../../Dockerfile", import.meta.url), "utf8");

/** The ENV lines of a Dockerfile stage. */
export function stageEnvironment(target: string): Record<string, string> {
  const stage = dockerfile.split(/^FROM /m).find((block) => new RegExp(`AS ${target}\\n`).test(block)) ?? "";
  const lines = [...stage.matchAll(/^ENV (.+)$/gm)].map((m) => m[1] ?? "");
  const pairs = lines.flatMap((line) => [...line.matchAll(/(\w+)=("[^"]*"|\S+)/g)]);
  return Object.fromEntries(pairs.map(([, key, value]) => [key, value?.replace(/^"|"$/g, "")]));
}

/**
 * The environment compose gives a service from the operator's (infra/.env): `${VAR:?...}` that
 * value (or `placeholder` when the operator has none, undefined leaves the variable out),
 * `${VAR:-default}` that value or its default, and a variable without a value (`NAME:`) passed on
 * when the operator sets it.
 */
export function composeEnvironment(
  service: ComposeService | undefined,
  operator: Record<string, string>,
  placeholder?: string,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries(service?.environment ?? {})) {
    const [, variable = "", kind, fallback] = /^\$\{(\w+)(:\?|:-)(.*)\}$/.exec(value ?? "") ?? [];
    const filled =
      value === null
        ? operator[key]
        : kind === ":?"
          ? (operator[variable] ?? placeholder)
          : kind === ":-"
            ? (operator[variable] ?? fallback)
            : value;
    if (filled !== undefined) environment[key] = filled;
  }
  return environment;
}
