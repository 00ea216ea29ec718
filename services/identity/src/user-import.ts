import { AuthError } from "@auth/errors";
import { isDeadlock } from "@auth/pg";
import { type ImportedUser, ImportOutcome, type ImportResult } from "@auth/proto/identity";
import type { EventOrigin } from "./events.js";
import type { PasswordHasher } from "./passwords.js";
import { importedUser } from "./requests.js";
import type { CompanyRow } from "./schema.js";
import type { IdentityStore, NewUser } from "./store/identity-store.js";
import { parseStorableRequest } from "./text-fields.js";
import { newUser } from "./users.js";

/**
 * A field of a request's detail as the import file names it, in snake_case (docs/operations.md,
 * "Importing users"): `passwordHash: unknown format` is `password_hash: unknown format`.
 */
const fileFieldNames = (detail: string) =>
  detail.replace(
    /(^|; )([A-Za-z.]+):/g,
    (_match, start: string, field: string) =>
      `${start}${field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}:`,
  );

/**
 * ImportUsers: each user of the batch on its own, in order (docs/api-contract.md, "Importing
 * users"). A user whose external id the company has is skipped untouched, also when another import
 * created it a moment ago (the store's unique key tells); any other refusal fails that user alone,
 * with the code and detail it would have had from CreateUser. The users that conflict with no one
 * are created in one transaction; only the others go to the store one at a time, to learn why
 * (docs/performance.md, "Importing users (2026-11-27)").
 */
export async function importUsers(
  store: IdentityStore,
  hasher: PasswordHasher,
  company: CompanyRow,
  users: ImportedUser[],
  origin: EventOrigin,
): Promise<ImportResult[]> {
  const known = await store.userIdsByExternalId(
    company.id,
    users.map((user) => user.externalId).filter(Boolean),
  );
  const prepared: Array<ImportResult | NewUser> = [];
  for (const user of users) prepared.push(await prepare(user));
  const toCreate = prepared.filter((entry): entry is NewUser => !("outcome" in entry));
  const created = new Map((await createTogether(toCreate)).map((row) => [row.externalId, row.id]));
  const results: ImportResult[] = [];
  for (const [index, entry] of prepared.entries()) {
    if ("outcome" in entry) results.push(entry);
    else {
      const user = users[index] as ImportedUser;
      results.push(claimCreated(user) ?? (await createAlone(user, entry)));
    }
  }
  return results;

  function resultOf(user: ImportedUser): Omit<ImportResult, "outcome"> {
    return { externalId: user.externalId, userId: "", errorCode: "", detail: "" };
  }

  /** The user as the store would keep it, or its outcome when it needs no insert: skipped, or refused. */
  async function prepare(user: ImportedUser): Promise<ImportResult | NewUser> {
    const knownUserId = known.get(user.externalId);
    if (knownUserId) return { ...resultOf(user), outcome: ImportOutcome.SKIPPED, userId: knownUserId };
    try {
      const input = parseStorableRequest(importedUser, user);
      return await newUser({ ...input, companyId: company.id }, company.policy, hasher);
    } catch (error) {
      return failure(user, error);
    }
  }

  /**
   * The batch's users that conflict with no one, created at once. Two batches that wait on each
   * other's rows (the same users in other orders) deadlock, and PostgreSQL aborts one: its users
   * then go alone, as each is one row.
   */
  async function createTogether(rows: NewUser[]) {
    try {
      return await store.createUsersWithoutConflict(rows, origin);
    } catch (error) {
      if (isDeadlock(error)) return [];
      throw error;
    }
  }

  /** CREATED, if the batch's insert made this user (the first of the batch with its external id). */
  function claimCreated(user: ImportedUser): ImportResult | undefined {
    const userId = created.get(user.externalId);
    if (userId === undefined) return undefined;
    created.delete(user.externalId);
    return { ...resultOf(user), outcome: ImportOutcome.CREATED, userId };
  }

  /** A user the batch's insert left out: created alone, or why not. */
  async function createAlone(user: ImportedUser, row: NewUser): Promise<ImportResult> {
    try {
      const stored = await store.createUser(row, origin);
      return { ...resultOf(user), outcome: ImportOutcome.CREATED, userId: stored.id };
    } catch (error) {
      const raced =
        error instanceof AuthError && error.code === "resource.exists"
          ? (await store.userIdsByExternalId(company.id, [user.externalId])).get(user.externalId)
          : undefined;
      if (raced) return { ...resultOf(user), outcome: ImportOutcome.SKIPPED, userId: raced };
      return failure(user, error);
    }
  }

  function failure(user: ImportedUser, error: unknown): ImportResult {
    if (!(error instanceof AuthError)) throw error;
    return {
      ...resultOf(user),
      outcome: ImportOutcome.FAILED,
      errorCode: error.code,
      detail: fileFieldNames(error.message),
    };
  }
}
