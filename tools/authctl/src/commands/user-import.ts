import { createReadStream, statSync, writeFileSync } from "node:fs";
import { extname } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { AuthError } from "@auth/errors";
import { type ImportedUser, ImportOutcome, UserStatus } from "@auth/proto/identity";
import { SingleBar } from "cli-progress";
import { parse } from "csv-parse";
import { statuses } from "./user-table.js";

/** What ImportUsers takes at once. */
/**
 * Users per ImportUsers call: identity takes 500, but a batch of plain passwords costs an argon2id
 * hash each, and 500 of them outlast the default --deadline (10 s) on a busy host.
 */
export const batchSize = 100;

export type ImportFormat = "jsonl" | "csv";

/** A line of the file: the user it holds, or why it holds none. */
type Line = { line: number; user: ImportedUser } | { line: number; failure: Failure };

export interface Failure {
  line: number;
  external_id: string;
  error_code: string;
  detail: string;
}

export interface Summary {
  created: number;
  skipped: number;
  failed: number;
  failures: Failure[];
}

const textFields = {
  external_id: "externalId",
  role: "role",
  profile_mnemocode: "profileMnemocode",
  login_name: "loginName",
  phone: "phone",
  email: "email",
  password: "password",
  password_hash: "passwordHash",
} as const;
const flagFields = {
  second_factor_required: "secondFactorRequired",
  password_change_required: "passwordChangeRequired",
} as const;

/** The format a file's name tells, when --format does not. */
export function formatOf(file: string, given: string | undefined): ImportFormat {
  const format =
    given ??
    extname(file)
      .slice(1)
      .toLowerCase()
      .replace(/^ndjson$|^json$/, "jsonl");
  if (format === "jsonl" || format === "csv") return format;
  throw new AuthError("request.validation.failed", {
    detail: `--format: jsonl or csv (the file's extension ${JSON.stringify(extname(file))} tells neither)`,
  });
}

function invalid(detail: string): never {
  throw new AuthError("request.validation.failed", { detail });
}

/**
 * A user of the file's snake_case fields (docs/operations.md, "Importing users"). An empty value
 * is an absent one, so that a CSV's empty cells are; a flag is true, false, 1, 0 or empty.
 */
export function importedUserOf(fields: Record<string, unknown>): ImportedUser {
  const user: ImportedUser = {
    externalId: "",
    role: "",
    profileMnemocode: "",
    status: UserStatus.ACTIVE,
    secondFactorRequired: false,
    passwordChangeRequired: false,
  };
  for (const [name, value] of Object.entries(fields)) {
    if (value === "" || value === null || value === undefined) continue;
    if (name in textFields) {
      if (typeof value !== "string") invalid(`${name}: must be a string`);
      user[textFields[name as keyof typeof textFields]] = value;
    } else if (name in flagFields) {
      const flag = { true: true, false: false, "1": true, "0": false }[String(value).toLowerCase()];
      if (flag === undefined) invalid(`${name}: must be true or false`);
      user[flagFields[name as keyof typeof flagFields]] = flag;
    } else if (name === "status") {
      const status = statuses[String(value)];
      if (status === undefined) invalid(`status: one of ${Object.keys(statuses).join(", ")}`);
      user.status = status;
    } else invalid(`${name}: not a field of a user`);
  }
  return user;
}

function lineOf(line: number, read: () => Record<string, unknown>): Line {
  try {
    return { line, user: importedUserOf(read()) };
  } catch (error) {
    const { code, message } =
      error instanceof AuthError ? error : { code: "request.validation.failed", message: String(error) };
    return { line, failure: { line, external_id: "", error_code: code, detail: message } };
  }
}

/** The JSON Lines of a file, one object a line; blank lines are skipped. */
async function* jsonLines(input: Readable): AsyncGenerator<Line> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    line += 1;
    if (text.trim() === "") continue;
    yield lineOf(line, () => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        invalid("not a JSON object");
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) invalid("not a JSON object");
      return value as Record<string, unknown>;
    });
  }
}

/** The rows of a CSV file whose header row names the fields; a row's number is its line's. */
async function* csvRows(input: Readable): AsyncGenerator<Line> {
  const parser = input.pipe(
    parse({ columns: true, info: true, skip_empty_lines: true, trim: true, bom: true }),
  );
  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, string>;
    info: { lines: number };
  }>)
    yield lineOf(info.lines, () => record);
}

/** How far an import is: on a terminal a bar of the file's bytes read, else a line per batch. */
export interface Progress {
  update(bytesRead: number, summary: Summary): void;
  stop(): void;
}

export function progressOf(fileBytes: number, terminal: boolean): Progress {
  const counts = (summary: Summary) =>
    `${summary.created} created, ${summary.skipped} skipped, ${summary.failed} failed`;
  if (!terminal)
    return {
      update: (_bytes, summary) => process.stderr.write(`${counts(summary)}\n`),
      stop: () => {},
    };
  const bar = new SingleBar({ format: "{bar} {percentage}% | {counts}", stream: process.stderr });
  bar.start(Math.max(fileBytes, 1), 0, { counts: "" });
  return {
    update: (bytes, summary) => bar.update(bytes, { counts: counts(summary) }),
    stop: () => bar.stop(),
  };
}

/**
 * Reads the file streamed and sends its users in batches of `batchSize` (ImportUsers): the summary of what
 * identity answered for each, and of the lines that held no user, by line number.
 */
export async function importFile(
  file: string,
  format: ImportFormat,
  send: (
    users: ImportedUser[],
  ) => Promise<{ outcome: ImportOutcome; externalId: string; errorCode: string; detail: string }[]>,
  progress: Progress,
): Promise<Summary> {
  const summary: Summary = { created: 0, skipped: 0, failed: 0, failures: [] };
  const fail = (failure: Failure) => {
    summary.failed += 1;
    summary.failures.push(failure);
  };
  const input = createReadStream(file);
  let batch: { line: number; user: ImportedUser }[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const results = await send(batch.map((entry) => entry.user));
    results.forEach((result, index) => {
      if (result.outcome === ImportOutcome.CREATED) summary.created += 1;
      else if (result.outcome === ImportOutcome.SKIPPED) summary.skipped += 1;
      else
        fail({
          line: batch[index]?.line ?? 0,
          external_id: result.externalId,
          error_code: result.errorCode,
          detail: result.detail,
        });
    });
    batch = [];
    progress.update(input.bytesRead, summary);
  };
  for await (const entry of format === "csv" ? csvRows(input) : jsonLines(input)) {
    if ("failure" in entry) fail(entry.failure);
    else batch.push(entry);
    if (batch.length === batchSize) await flush();
  }
  await flush();
  progress.stop();
  summary.failures.sort((a, b) => a.line - b.line);
  return summary;
}

/** The summary as printed: the counts, then each failed line with its number and reason. */
export function summaryText(summary: Summary): string {
  const lines = [`created: ${summary.created}`, `skipped: ${summary.skipped}`, `failed: ${summary.failed}`];
  for (const failure of summary.failures) {
    const user = failure.external_id ? ` (${failure.external_id})` : "";
    lines.push(`line ${failure.line}${user}: ${failure.error_code}: ${failure.detail}`);
  }
  return lines.join("\n");
}

/** The failures as JSON Lines, for --report. */
export function writeReport(file: string, summary: Summary): void {
  writeFileSync(file, summary.failures.map((failure) => `${JSON.stringify(failure)}\n`).join(""));
}

export const fileBytes = (file: string) => statSync(file).size;
