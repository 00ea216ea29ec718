import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { ErrorCode } from "@auth/errors";
import { describe, expect, it } from "vitest";
import type { Step } from "../endpoint/step.js";
import { endpoints } from "../routes.js";
import { errorAnswers } from "./endpoint-errors.js";

/**
 * An endpoint's error list is derived from the steps it declares (endpoint/step.ts). These tests read
 * the source, so that a code a handler or a step can throw but that its declaration does not list
 * fails here, whether or not a test ever takes the path that throws it.
 */

const src = fileURLToPath(new URL("..", import.meta.url));

function modulesUnder(folder: string): string[] {
  return readdirSync(join(src, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => join(src, folder, file));
}

const isStep = (value: unknown): value is Step =>
  (typeof value === "function" || typeof value === "object") &&
  value !== null &&
  Array.isArray((value as Partial<Step>).errors);

/** Every step the steps and factors export, by its exported name. */
async function allSteps(): Promise<Map<string, Step>> {
  const steps = new Map<string, Step>();
  for (const file of [...modulesUnder("steps"), ...modulesUnder("factors")]) {
    const exported: Record<string, unknown> = await import(file);
    for (const [name, value] of Object.entries(exported)) if (isStep(value)) steps.set(name, value);
  }
  return steps;
}

/** The codes a piece of source throws by name: `new AuthError("...")`. */
const thrownCodes = (source: string): ErrorCode[] =>
  [...source.matchAll(/new AuthError\(\s*"([a-z.]+)"/g)].map((match) => match[1] as ErrorCode);

/** The steps a piece of source calls. */
const calledSteps = (source: string, steps: Map<string, Step>): Array<[string, Step]> =>
  [...steps].filter(([name]) => new RegExp(`\\b${name}\\(`).test(source));

/** A module's exported steps, each with its own source (from its `export const` to the next). */
function stepSources(file: string): Array<[string, string]> {
  const source = readFileSync(file, "utf8");
  const parts = source.split(/^export /m).slice(1);
  return parts
    .map((part) => [/^const (\w+) = step\(/.exec(part)?.[1], part] as const)
    .filter((entry): entry is [string, string] => entry[0] !== undefined);
}

const steps = await allSteps();

/** What every endpoint lists (api/endpoint-errors.ts): a backend that is down, a bug. */
const alwaysListed = new Set<ErrorCode>(["service.unavailable", "internal.error"]);

describe("an endpoint's errors come from its steps", () => {
  const flowFiles = modulesUnder("flows");

  it.each(flowFiles.map((file) => [relative(src, file), file]))(
    "%s: its declaration names every step its handler runs, and lists every code it throws itself",
    (_, file) => {
      const source = readFileSync(file, "utf8");
      const operation = /operation: "([^"]+)"/.exec(source)?.[1];
      const endpoint = endpoints.find((candidate) => candidate.operation === operation);
      if (!endpoint) throw new Error(`no endpoint in ${file}`);
      const declared = new Set<Step>(endpoint.steps);
      const undeclared = calledSteps(source, steps)
        .filter(([, used]) => !declared.has(used))
        .map(([name]) => name);
      expect(undeclared).toEqual([]);
      const listed = new Set(errorAnswers(endpoint).map((answer) => answer.code));
      expect(thrownCodes(source).filter((code) => !listed.has(code))).toEqual([]);
    },
  );

  const stepFiles = [...modulesUnder("steps"), ...modulesUnder("factors")];
  it.each(
    stepFiles.flatMap((file) =>
      stepSources(file).map(([name, source]) => [`${relative(src, file)} ${name}`, name, source]),
    ),
  )("%s declares every code it throws and every code of the steps it runs", (_, name, source) => {
    const declared = new Set(steps.get(name)?.errors);
    const missing = [
      ...thrownCodes(source),
      ...calledSteps(source, steps)
        .filter(([called]) => called !== name)
        .flatMap(([, called]) => called.errors),
    ].filter((code) => !alwaysListed.has(code) && !declared.has(code));
    expect(missing).toEqual([]);
  });

  it("lists request.ratelimit.exceeded (429) on every endpoint: each request is counted per client address before its token", () => {
    for (const endpoint of endpoints) {
      expect(errorAnswers(endpoint), endpoint.operation).toContainEqual({
        code: "request.ratelimit.exceeded",
        status: 429,
      });
    }
  });

  it("lists what an endpoint answers while its company is suspended (docs/decisions.md, Suspension)", () => {
    for (const endpoint of endpoints) {
      if (endpoint.whileSuspended === "serve") continue;
      expect(
        errorAnswers(endpoint).map((answer) => answer.code),
        endpoint.operation,
      ).toContain(endpoint.whileSuspended);
    }
  });

  it("lists the user's status on every endpoint that checks it, the authenticator app's included", () => {
    for (const operation of ["totp/enrol", "totp/confirm", "checkotp", "renewotp"]) {
      const endpoint = endpoints.find((candidate) => candidate.operation === operation);
      const codes = errorAnswers(endpoint ?? endpoints[0]).map((answer) => answer.code);
      expect(codes, operation).toEqual(
        expect.arrayContaining(["auth.user.restricted", "auth.user.closed", "auth.user.denied"]),
      );
    }
  });
});
