import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { configProblems, processes } from "./config-schemas.js";

const compose = parse(readFileSync(new URL("../../compose.yaml", import.meta.url), "utf8")) as {
  services: Record<string, { build?: { target?: string }; environment?: Record<string, string> }>;
};
const dockerfile = readFileSync(new URL("../../../Dockerfile", import.meta.url), "utf8");

/** The ENV lines of a Dockerfile stage. */
function stageEnvironment(target: string): Record<string, string> {
  const stage = dockerfile.split(/^FROM /m).find((block) => new RegExp(`AS ${target}\\n`).test(block)) ?? "";
  const lines = [...stage.matchAll(/^ENV (.+)$/gm)].map((m) => m[1] ?? "");
  const pairs = lines.flatMap((line) => [...line.matchAll(/(\w+)=("[^"]*"|\S+)/g)]);
  return Object.fromEntries(pairs.map(([, key, value]) => [key, value?.replace(/^"|"$/g, "")]));
}

describe("the Dockerfile", () => {
  it.each(processes)("has a target %s that runs as a non-root user with tracing preloaded", (name) => {
    expect(dockerfile).toMatch(new RegExp(`^FROM runtime AS ${name}$`, "m"));
    expect(dockerfile).toMatch(/^USER node$/m);
    const stage = dockerfile.split(/^FROM /m).find((block) => block.startsWith(`runtime AS ${name}\n`)) ?? "";
    expect(stage).toContain('CMD ["node", "--import", "@auth/telemetry/register", "dist/main.js"]');
  });
});

describe("infra/compose.yaml", () => {
  it("runs PostgreSQL, Redis, an OpenTelemetry collector and the six processes", () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [...processes, "otel-collector", "postgres", "redis"].sort(),
    );
  });

  it.each(processes)(
    "builds %s from its Dockerfile target with a configuration its start-up check accepts",
    (name) => {
      const service = compose.services[name];
      expect(service?.build?.target).toBe(name);
      // Compose fills ${VAR:?...} from the operator's environment; any value of the right shape will do here.
      const environment = Object.fromEntries(
        Object.entries(service?.environment ?? {}).map(([key, value]) => [
          key,
          String(value).startsWith("${") ? "a-32-character-placeholder-value-0000" : String(value),
        ]),
      );
      if (environment.SECRETS_KEY) environment.SECRETS_KEY = Buffer.alloc(32, 1).toString("base64");
      expect(configProblems(name, { ...stageEnvironment(name), ...environment })).toEqual([]);
    },
  );
});
