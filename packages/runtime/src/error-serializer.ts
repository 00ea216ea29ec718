import { pino } from "pino";

/**
 * Properties that hold a failed query's values: Drizzle's and the drivers' `params`, and
 * PostgreSQL's `detail` ("Key (email)=(ann@example.com) already exists.") and `where` ("unnamed
 * portal parameter $1 = '...'").
 */
const valueProperties = new Set(["params", "parameters", "detail", "where"]);

/** Drizzle's DrizzleQueryError ends its message with "params: " and the values, newlines and all. */
const parametersMarker = /(^|\n)params: /;

/** A line that starts with "params: " and is not redacted yet, wherever it comes from (the last resort). */
const parameterLines = /^params: (?!\[redacted\]).*$/gm;

/**
 * A value PostgreSQL could not read, quoted in its message (`invalid input syntax for type uuid:
 * "ann"`, `invalid input value for enum role: "x"`): the driver's own error carries no parameters
 * to match it against, so the quoted text after the type is redacted wherever it stands.
 */
const unreadableValues = /(for (?:type|enum) [^:"\n]+: )"(?:[^"]|"")*"/g;

interface ErrorLike {
  message: string;
  params?: unknown;
  parameters?: unknown;
  cause?: unknown;
}

const isErrorLike = (value: unknown): value is ErrorLike =>
  typeof value === "object" && value !== null && typeof (value as ErrorLike).message === "string";

/** The error and its causes, each once. */
function chainOf(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  for (let current = error; isErrorLike(current) && !chain.includes(current); current = current.cause) {
    chain.push(current);
  }
  return chain;
}

/** The texts a log line must not hold for this error: its message's parameters, and each value quoted. */
function secretTextsOf(error: ErrorLike): { text: string; replacement: string }[] {
  const texts = [];
  const marker = parametersMarker.exec(error.message);
  if (marker) {
    const parameters = error.message.slice(marker.index + marker[0].length);
    if (parameters) texts.push({ text: `params: ${parameters}`, replacement: "params: [redacted]" });
  }
  // PostgreSQL quotes a value it cannot read in its message: invalid input syntax for type uuid: "ann".
  for (const values of [error.params, error.parameters]) {
    if (!Array.isArray(values)) continue;
    for (const value of values) {
      if (typeof value !== "string" || value === "") continue;
      texts.push(
        { text: `"${value}"`, replacement: '"[redacted]"' },
        { text: `'${value}'`, replacement: "'[redacted]'" },
      );
    }
  }
  return texts;
}

/**
 * An error as a log line holds it (pino's serializer, which folds the causes' messages and stacks
 * into the error's), without the values of a failed query anywhere in the error or its causes: they
 * hold login IDs and other request data (docs/security.md, "Abuse of the service").
 */
export function serializeError(error: Error): Record<string, unknown> {
  const secrets = chainOf(error).flatMap(secretTextsOf);
  const scrubText = (text: string) =>
    secrets
      .reduce((scrubbed, { text: secret, replacement }) => scrubbed.replaceAll(secret, replacement), text)
      .replace(parameterLines, "params: [redacted]")
      .replace(unreadableValues, '$1"[redacted]"');
  const seen = new WeakSet<object>();
  const scrub = (value: unknown): unknown => {
    if (typeof value === "string") return scrubText(value);
    if (typeof value !== "object" || value === null || value instanceof Date) return value;
    if (seen.has(value)) return "[Circular]";
    seen.add(value);
    if (Array.isArray(value)) return value.map(scrub);
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !valueProperties.has(key))
        .map(([key, inner]) => [key, scrub(inner)]),
    );
  };
  return scrub(pino.stdSerializers.err(error)) as Record<string, unknown>;
}
