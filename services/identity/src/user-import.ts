import { AuthError } from "@auth/errors";
import { type ImportedUser, ImportOutcome, type ImportResult } from "@auth/proto/identity";
import type { EventOrigin } from "./events.js";
import type { PasswordHasher } from "./passwords.js";
import { importedUser } from "./requests.js";
import type { CompanyRow } from "./schema.js";
import type { IdentityStore } from "./store/identity-store.js";
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
 * with the code and detail it would have had from CreateUser.
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
  const results: ImportResult[] = [];
  for (const user of users) results.push(await importOne(user, known));
  return results;

  async function importOne(user: ImportedUser, known: Map<string, string>): Promise<ImportResult> {
    const { externalId } = user;
    const knownUserId = known.get(externalId);
    const result = { externalId, userId: "", errorCode: "", detail: "" };
    if (knownUserId) return { ...result, outcome: ImportOutcome.SKIPPED, userId: knownUserId };
    try {
      const input = parseStorableRequest(importedUser, user);
      const row = await store.createUser(
        await newUser({ ...input, companyId: company.id }, company.policy, hasher),
        origin,
      );
      return { ...result, outcome: ImportOutcome.CREATED, userId: row.id };
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      const raced =
        error.code === "resource.exists"
          ? (await store.userIdsByExternalId(company.id, [externalId])).get(externalId)
          : undefined;
      if (raced) return { ...result, outcome: ImportOutcome.SKIPPED, userId: raced };
      return {
        ...result,
        outcome: ImportOutcome.FAILED,
        errorCode: error.code,
        detail: fileFieldNames(error.message),
      };
    }
  }
}
