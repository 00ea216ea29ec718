import { AuthError } from "@auth/errors";
import { recordEvents } from "@auth/events/pg";
import { type Database, isUniqueViolation } from "@auth/pg";
import { Factor } from "@auth/proto/events";
import type { CompanyPolicy } from "@auth/proto/identity";
import {
  and,
  asc,
  count,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  sql,
} from "drizzle-orm";
import {
  adminChange,
  checkFailed,
  checkPassed,
  type EventOrigin,
  type FactorCheck,
  factorChanged,
  passwordChanged,
} from "../events.js";
import {
  type ApiKeyRow,
  apiKeys,
  backupCodes,
  type CompanyRow,
  companies,
  type IdentitySchema,
  noticesSent,
  type OAuthProviderRow,
  oauthLinks,
  oauthProviders,
  passkeys,
  recoveryMessages,
  type UserRow,
  users,
} from "../schema.js";
import {
  apiKeyFields,
  changedFields,
  companyFields,
  policyFields,
  providerFields,
  userFields,
} from "./changed-fields.js";
import { ContactChangeStore } from "./contact-change-store.js";
import { PasskeyStore } from "./passkey-store.js";

export interface NewCompany {
  code: string;
  name: string;
  policy: CompanyPolicy;
}

export type NewUser = Omit<typeof users.$inferInsert, "id" | "createdAt" | "updatedAt">;

/**
 * A user as every read of the store gives it: the row, whether the user has backup codes left, and
 * whether a passkey that is not clone-suspect.
 */
export type StoredUser = UserRow & { hasBackupCodes: boolean; hasPasskey: boolean };

/**
 * The columns of a StoredUser: whether backup codes or a passkey are left are subqueries of the
 * user's own query, so that a login reads the user's authenticators (authenticators.ts) in one
 * round trip.
 */
const storedUser = {
  ...getTableColumns(users),
  hasBackupCodes: sql<boolean>`exists (select 1 from ${backupCodes} where ${backupCodes.userId} = ${users.id})`,
  // Qualified by hand: drizzle writes a column here without its table, and passkeys has an id too.
  hasPasskey: sql<boolean>`exists (select 1 from ${passkeys} where ${passkeys}.user_id = ${users}.id and not ${passkeys}.clone_suspected)`,
};

export type LoginIdColumn = "phone" | "email" | "loginName";

async function insertUnique<T>(insert: Promise<T>, what: string): Promise<T> {
  try {
    return await insert;
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AuthError("resource.exists", { detail: `${what} already exists` });
    throw error;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the store's database, or a transaction of it
type Writer = Database<any>;

/** Locks the user's row for the rest of the transaction; the user as it is, if the company has it. */
async function lockUser(tx: Writer, companyId: string, userId: string): Promise<UserRow | undefined> {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)))
    .for("update");
  return row;
}

async function setPasswordHash(
  db: Writer,
  companyId: string,
  userId: string,
  changes: { passwordHash: string; passwordChangeRequired?: boolean; passwordClaimId?: string | null },
): Promise<void> {
  await db
    .update(users)
    .set({ ...changes, passwordNfkc: true, updatedAt: new Date() })
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
}

async function insertApiKey(
  tx: Writer,
  key: { companyId: string; keyHash: string; label: string },
): Promise<ApiKeyRow> {
  const [row] = await tx.insert(apiKeys).values(key).returning();
  if (!row) throw new Error("insert returned no API key");
  return row;
}

/**
 * An operator's write of a company (created, or `before` it changed): admin.company.changed, and
 * admin.policy.changed with the names of the policy's fields an update changed.
 */
function companyChanged(origin: EventOrigin, before: CompanyRow | undefined, after: CompanyRow) {
  const where = { companyId: after.id };
  const resource = { resourceId: after.id, action: before ? "updated" : "created" };
  const fields = changedFields(before, after, companyFields);
  if (!before)
    return adminChange(origin, "admin.company.changed", where, { resource: "company", ...resource, fields });
  return [
    ...adminChange(origin, "admin.company.changed", where, {
      resource: "company",
      ...resource,
      fields: fields.filter((field) => field !== "policy"),
    }),
    ...adminChange(origin, "admin.policy.changed", where, {
      resource: "policy",
      ...resource,
      fields: changedFields(before.policy, after.policy, policyFields(before.policy, after.policy)),
    }),
  ];
}

function apiKeyChanged(origin: EventOrigin, before: ApiKeyRow | undefined, after: ApiKeyRow, action: string) {
  return adminChange(
    origin,
    "admin.api_key.changed",
    { companyId: after.companyId },
    { resource: "api_key", resourceId: after.id, action, fields: changedFields(before, after, apiKeyFields) },
  );
}

function userChanged(origin: EventOrigin, before: UserRow | undefined, after: UserRow) {
  return adminChange(
    origin,
    "admin.user.changed",
    { companyId: after.companyId, userId: after.id },
    {
      resource: "user",
      resourceId: after.id,
      action: before ? "updated" : "created",
      fields: changedFields(before, after, userFields),
    },
  );
}

/** A company's OAuth provider slot is of its policy: admin.policy.changed about "oauth_provider/<company>/<slot>". */
function providerChanged(origin: EventOrigin, row: OAuthProviderRow, action: string, fields: string[]) {
  return adminChange(
    origin,
    "admin.policy.changed",
    { companyId: row.companyId },
    { resource: "oauth_provider", resourceId: `${row.companyId}/${row.slot}`, action, fields },
  );
}

/**
 * The lookups every login makes, as named prepared statements: built once here instead of on each
 * call, and parsed and planned by PostgreSQL once per connection.
 */
function preparedLookups(db: Database<IdentitySchema>) {
  const companyId = sql.placeholder("companyId");
  const byColumn = (column: LoginIdColumn) =>
    db
      .select(storedUser)
      .from(users)
      .where(and(eq(users.companyId, companyId), eq(users[column], sql.placeholder("value"))))
      .prepare(`identity_user_by_${column}`);
  return {
    userById: db
      .select(storedUser)
      .from(users)
      .where(and(eq(users.companyId, companyId), eq(users.id, sql.placeholder("userId"))))
      .prepare("identity_user_by_id"),
    userByLoginId: { phone: byColumn("phone"), email: byColumn("email"), loginName: byColumn("loginName") },
  };
}

/**
 * The identity service's tables: companies, API keys and users (and their passkeys, `passkeys`, and
 * pending changes of address, `contactChanges`).
 */
export class IdentityStore {
  readonly #lookups: ReturnType<typeof preparedLookups>;
  readonly passkeys: PasskeyStore;
  readonly contactChanges: ContactChangeStore;

  constructor(private readonly db: Database<IdentitySchema>) {
    this.#lookups = preparedLookups(db);
    this.passkeys = new PasskeyStore(db);
    this.contactChanges = new ContactChangeStore(db);
  }

  async createCompany(company: NewCompany, origin: EventOrigin): Promise<CompanyRow> {
    return insertUnique(
      this.db.transaction(async (tx) => {
        const [row] = await tx.insert(companies).values(company).returning();
        if (!row) throw new Error("insert returned no company");
        await recordEvents(tx, companyChanged(origin, undefined, row));
        return row;
      }),
      "a company with this code",
    );
  }

  async findCompanyByCode(code: string): Promise<CompanyRow | undefined> {
    const [row] = await this.db.select().from(companies).where(eq(companies.code, code));
    return row;
  }

  /** Companies by code, after the given code. */
  listCompanies(afterCode: string, limit: number): Promise<CompanyRow[]> {
    return this.db
      .select()
      .from(companies)
      .where(gt(companies.code, afterCode))
      .orderBy(asc(companies.code))
      .limit(limit);
  }

  async findCompanyById(id: string): Promise<CompanyRow | undefined> {
    const [row] = await this.db.select().from(companies).where(eq(companies.id, id));
    return row;
  }

  async updateCompany(
    id: string,
    changes: Partial<Pick<CompanyRow, "name" | "suspended" | "policy">>,
    origin: EventOrigin,
  ): Promise<CompanyRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(companies).where(eq(companies.id, id)).for("update");
      if (!before) return undefined;
      const [row] = await tx.update(companies).set(changes).where(eq(companies.id, id)).returning();
      if (!row) throw new Error("update returned no company");
      await recordEvents(tx, companyChanged(origin, before, row));
      return row;
    });
  }

  async createApiKey(
    companyId: string,
    keyHash: string,
    label: string,
    origin: EventOrigin,
  ): Promise<string> {
    return insertUnique(
      this.db.transaction(async (tx) => {
        const row = await insertApiKey(tx, { companyId, keyHash, label });
        await recordEvents(tx, apiKeyChanged(origin, undefined, row, "created"));
        return row.id;
      }),
      "this API key",
    );
  }

  listApiKeys(companyId: string): Promise<ApiKeyRow[]> {
    return this.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.companyId, companyId))
      .orderBy(asc(apiKeys.createdAt));
  }

  async findApiKey(companyId: string, keyId: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.companyId, companyId), eq(apiKeys.id, keyId)));
    return row;
  }

  /** Revokes the key now; false when the company has no such key. A key revoked already stays as it was. */
  async revokeApiKey(companyId: string, keyId: string, origin: EventOrigin): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.companyId, companyId), eq(apiKeys.id, keyId)))
        .for("update");
      if (!before) return false;
      if (before.revokedAt) return true;
      const [row] = await tx
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(eq(apiKeys.id, keyId))
        .returning();
      if (!row) throw new Error("update returned no API key");
      await recordEvents(tx, apiKeyChanged(origin, before, row, "revoked"));
      return true;
    });
  }

  /**
   * A new key with the old one's label, in one transaction with the old one's end at `expiresAt`
   * (the rotation's overlap); the new key's id.
   */
  async rotateApiKey(old: ApiKeyRow, keyHash: string, expiresAt: Date, origin: EventOrigin): Promise<string> {
    return insertUnique(
      this.db.transaction(async (tx) => {
        const created = await insertApiKey(tx, { companyId: old.companyId, keyHash, label: old.label });
        const [ended] = await tx.update(apiKeys).set({ expiresAt }).where(eq(apiKeys.id, old.id)).returning();
        if (!ended) throw new Error("update returned no API key");
        await recordEvents(tx, [
          ...apiKeyChanged(origin, undefined, created, "created"),
          ...apiKeyChanged(origin, old, ended, "rotated"),
        ]);
        return created.id;
      }),
      "this API key",
    );
  }

  /** The company of an unrevoked API key, found by the key's hash. */
  async findCompanyByApiKey(keyHash: string): Promise<CompanyRow | undefined> {
    const [row] = await this.db
      .select({ company: companies })
      .from(apiKeys)
      .innerJoin(companies, eq(apiKeys.companyId, companies.id))
      .where(
        and(
          eq(apiKeys.keyHash, keyHash),
          isNull(apiKeys.revokedAt),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, new Date())),
        ),
      );
    return row?.company;
  }

  async createUser(user: NewUser, origin: EventOrigin): Promise<StoredUser> {
    return insertUnique(
      this.db.transaction(async (tx) => {
        const [row] = await tx.insert(users).values(user).returning(storedUser);
        if (!row) throw new Error("insert returned no user");
        await recordEvents(tx, userChanged(origin, undefined, row));
        return row;
      }),
      "a user with this login name, phone, e-mail or profile",
    );
  }

  /**
   * ImportUsers' batch in one transaction: the users whose login name, phone, e-mail, profile and
   * external id no stored user (nor an earlier one of the batch) has, with admin.user.changed for each;
   * the others are left out, for the caller to try on their own (createUser says why). Returns the
   * users created.
   */
  async createUsersWithoutConflict(newUsers: NewUser[], origin: EventOrigin): Promise<StoredUser[]> {
    if (newUsers.length === 0) return [];
    return this.db.transaction(async (tx) => {
      const rows = await tx.insert(users).values(newUsers).onConflictDoNothing().returning(storedUser);
      await recordEvents(
        tx,
        rows.flatMap((row) => userChanged(origin, undefined, row)),
      );
      return rows;
    });
  }

  /** The ids of the company's users that have these external ids (ImportUsers), by external id. */
  async userIdsByExternalId(companyId: string, externalIds: string[]): Promise<Map<string, string>> {
    const rows = await this.db
      .select({ id: users.id, externalId: users.externalId })
      .from(users)
      .where(and(eq(users.companyId, companyId), inArray(users.externalId, externalIds)));
    return new Map(rows.map((row) => [row.externalId ?? "", row.id]));
  }

  async findUser(companyId: string, userId: string): Promise<StoredUser | undefined> {
    const [row] = await this.#lookups.userById.execute({ companyId, userId });
    return row;
  }

  /** A company's users by id, after the given id. */
  listUsers(companyId: string, afterId: string | undefined, limit: number): Promise<StoredUser[]> {
    return this.db
      .select(storedUser)
      .from(users)
      .where(and(eq(users.companyId, companyId), afterId === undefined ? undefined : gt(users.id, afterId)))
      .orderBy(asc(users.id))
      .limit(limit);
  }

  async updateUser(
    companyId: string,
    userId: string,
    changes: Partial<NewUser>,
    origin: EventOrigin,
  ): Promise<StoredUser | undefined> {
    return insertUnique(
      this.db.transaction(async (tx) => {
        const before = await lockUser(tx, companyId, userId);
        if (!before) return undefined;
        const [row] = await tx
          .update(users)
          .set({ ...changes, updatedAt: new Date() })
          .where(and(eq(users.companyId, companyId), eq(users.id, userId)))
          .returning(storedUser);
        if (!row) throw new Error("update returned no user");
        await recordEvents(tx, userChanged(origin, before, row));
        return row;
      }),
      "a user with this login name, phone, e-mail or profile",
    );
  }

  async findUserByLoginId(
    companyId: string,
    column: LoginIdColumn,
    value: string,
  ): Promise<StoredUser | undefined> {
    const [row] = await this.#lookups.userByLoginId[column].execute({ companyId, value });
    return row;
  }

  /**
   * The password the user set (SetPassword) in the session's change `claimId`, which also ends an
   * administrator's demand for a change. `passwordHash` is of the password's NFKC form
   * (PasswordHasher.hashPassword).
   */
  async changePassword(
    companyId: string,
    userId: string,
    change: { passwordHash: string; claimId: string },
    origin: EventOrigin,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await setPasswordHash(tx, companyId, userId, {
        passwordHash: change.passwordHash,
        passwordChangeRequired: false,
        passwordClaimId: change.claimId,
      });
      await recordEvents(tx, [passwordChanged(origin, companyId, userId)]);
    });
  }

  /** The same password's hash, made again of its NFKC form or with stronger parameters: no change of the user's. */
  async rehashPassword(companyId: string, userId: string, passwordHash: string): Promise<void> {
    await setPasswordHash(this.db, companyId, userId, { passwordHash });
  }

  /**
   * Records a recovery message to the user if fewer than `limit` went out in the last `windowSeconds`,
   * in one statement (the upsert locks the user's row, so racing calls take turns); otherwise the
   * seconds until the oldest of them leaves the window.
   */
  async spendRecoveryMessage(
    companyId: string,
    userId: string,
    limit: number,
    windowSeconds: number,
  ): Promise<{ spent: true } | { spent: false; retryAfterSeconds: number }> {
    const window = sql`make_interval(secs => ${windowSeconds})`;
    const recent = sql`array(select t from unnest(${recoveryMessages.sentAt}) as t where t > now() - ${window})`;
    const spent = await this.db
      .insert(recoveryMessages)
      .values({ companyId, userId, sentAt: sql`array[now()]` })
      .onConflictDoUpdate({
        target: [recoveryMessages.companyId, recoveryMessages.userId],
        set: { sentAt: sql`array_append(${recent}, now())` },
        setWhere: sql`cardinality(${recent}) < ${limit}`,
      })
      .returning({ userId: recoveryMessages.userId });
    if (spent.length === 1) return { spent: true };
    const [row] = await this.db
      .select({
        seconds: sql<string>`ceil(extract(epoch from (select min(t) from unnest(${recoveryMessages.sentAt}) as t where t > now() - ${window}) + ${window} - now()))`,
      })
      .from(recoveryMessages)
      .where(and(eq(recoveryMessages.companyId, companyId), eq(recoveryMessages.userId, userId)));
    return { spent: false, retryAfterSeconds: Math.max(Number(row?.seconds ?? windowSeconds), 1) };
  }

  /**
   * Records a notice of this kind to the user if fewer than `limit` of the kind went out in the
   * last `windowSeconds`, in one statement (the upsert locks the user's row of the kind, so racing
   * calls take turns and no more than `limit` are recorded); false when the cap holds it back.
   */
  async spendNotice(
    companyId: string,
    userId: string,
    event: string,
    limit: number,
    windowSeconds: number,
  ): Promise<boolean> {
    const window = sql`make_interval(secs => ${windowSeconds})`;
    const recent = sql`array(select t from unnest(${noticesSent.sentAt}) as t where t > now() - ${window})`;
    const spent = await this.db
      .insert(noticesSent)
      .values({ companyId, userId, event, sentAt: sql`array[now()]` })
      .onConflictDoUpdate({
        target: [noticesSent.companyId, noticesSent.userId, noticesSent.event],
        set: { sentAt: sql`array_append(${recent}, now())` },
        setWhere: sql`cardinality(${recent}) < ${limit}`,
      })
      .returning({ userId: noticesSent.userId });
    return spent.length === 1;
  }

  /**
   * Replaces the user's backup codes with these hashes, in one transaction. The user's row is
   * locked first, so that sets issued at once do not mix (a set shares one salt: backup-codes.ts).
   */
  async replaceBackupCodes(
    companyId: string,
    userId: string,
    codeHashes: string[],
    origin: EventOrigin,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await lockUser(tx, companyId, userId);
      await tx
        .delete(backupCodes)
        .where(and(eq(backupCodes.companyId, companyId), eq(backupCodes.userId, userId)));
      await tx.insert(backupCodes).values(codeHashes.map((codeHash) => ({ companyId, userId, codeHash })));
      await recordEvents(
        tx,
        factorChanged(origin, { companyId, userId, factor: Factor.BACKUP_CODE }, "reset"),
      );
    });
  }

  /**
   * Gives the user these hashes as the first set, if the user has no backup codes; false when the
   * user has some (another set won), and nothing changed. Locked as replaceBackupCodes is.
   */
  async addFirstBackupCodes(
    companyId: string,
    userId: string,
    codeHashes: string[],
    origin: EventOrigin,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await lockUser(tx, companyId, userId);
      const [existing] = await tx
        .select({ userId: backupCodes.userId })
        .from(backupCodes)
        .where(and(eq(backupCodes.companyId, companyId), eq(backupCodes.userId, userId)))
        .limit(1);
      if (existing) return false;
      await tx.insert(backupCodes).values(codeHashes.map((codeHash) => ({ companyId, userId, codeHash })));
      await recordEvents(
        tx,
        factorChanged(origin, { companyId, userId, factor: Factor.BACKUP_CODE }, "added"),
      );
      return true;
    });
  }

  async countBackupCodes(companyId: string, userId: string): Promise<number> {
    const [row] = await this.db
      .select({ remaining: count() })
      .from(backupCodes)
      .where(and(eq(backupCodes.companyId, companyId), eq(backupCodes.userId, userId)));
    return row?.remaining ?? 0;
  }

  /** One of the user's stored codes (a set shares its salt and parameters), if the user has any left. */
  async anyBackupCode(companyId: string, userId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ codeHash: backupCodes.codeHash })
      .from(backupCodes)
      .where(and(eq(backupCodes.companyId, companyId), eq(backupCodes.userId, userId)))
      .limit(1);
    return row?.codeHash;
  }

  /**
   * Deletes the code if the user has it, and records the check passed; true for exactly one of any
   * number of racing uses.
   */
  async useBackupCode(check: FactorCheck & { userId: string }, codeHash: string): Promise<boolean> {
    const { companyId, userId } = check;
    return this.db.transaction(async (tx) => {
      const deleted = await tx
        .delete(backupCodes)
        .where(
          and(
            eq(backupCodes.companyId, companyId),
            eq(backupCodes.userId, userId),
            eq(backupCodes.codeHash, codeHash),
          ),
        )
        .returning({ codeHash: backupCodes.codeHash });
      if (deleted.length !== 1) return false;
      await recordEvents(tx, checkPassed(check));
      return true;
    });
  }

  /**
   * A check of a factor that failed (checkFailed), for the reason given (failureOf); none when it
   * did not fail. No change of the store's: it is recorded on its own, right after the check.
   */
  async recordCheckFailed(check: FactorCheck, reason: string | undefined): Promise<void> {
    if (reason !== undefined) await recordEvents(this.db, [checkFailed(check, reason)]);
  }

  /** Stores a secret being enrolled, sealed; the enrolled one, if any, stays until it is confirmed. */
  async setPendingTotp(companyId: string, userId: string, sealedSecret: string): Promise<void> {
    await this.db
      .update(users)
      .set({ totpPendingSecret: sealedSecret, updatedAt: new Date() })
      .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  }

  /**
   * Makes the pending secret the user's, with `step` used, if it is still the one that was checked
   * (a newer enrolment in between wins).
   */
  async confirmTotp(
    companyId: string,
    userId: string,
    sealedSecret: string,
    step: number,
    origin: EventOrigin,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const confirmed = await tx
        .update(users)
        .set({ totpSecret: sealedSecret, totpPendingSecret: null, totpLastStep: step, updatedAt: new Date() })
        .where(
          and(
            eq(users.companyId, companyId),
            eq(users.id, userId),
            eq(users.totpPendingSecret, sealedSecret),
          ),
        )
        .returning({ id: users.id });
      if (confirmed.length !== 1) return false;
      await recordEvents(tx, factorChanged(origin, { companyId, userId, factor: Factor.APP_CODE }, "added"));
      return true;
    });
  }

  /**
   * Uses a time step of the user's authenticator if it is later than the last one used, and records
   * the check passed: true for exactly one of any number of racing uses of one code (one conditional
   * update).
   */
  async useTotpStep(check: FactorCheck & { userId: string }, step: number): Promise<boolean> {
    const { companyId, userId } = check;
    return this.db.transaction(async (tx) => {
      const used = await tx
        .update(users)
        .set({ totpLastStep: step })
        .where(
          and(
            eq(users.companyId, companyId),
            eq(users.id, userId),
            isNotNull(users.totpSecret),
            lt(users.totpLastStep, step),
          ),
        )
        .returning({ id: users.id });
      if (used.length !== 1) return false;
      await recordEvents(tx, checkPassed(check));
      return true;
    });
  }

  /** Removes the user's authenticator and any pending one; false when there was neither. */
  async removeTotp(companyId: string, userId: string, origin: EventOrigin): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const removed = await tx
        .update(users)
        .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: -1, updatedAt: new Date() })
        .where(
          and(
            eq(users.companyId, companyId),
            eq(users.id, userId),
            or(isNotNull(users.totpSecret), isNotNull(users.totpPendingSecret)),
          ),
        )
        .returning({ id: users.id });
      if (removed.length !== 1) return false;
      await recordEvents(
        tx,
        factorChanged(origin, { companyId, userId, factor: Factor.APP_CODE }, "removed"),
      );
      return true;
    });
  }

  /** Puts a provider in its slot, replacing what was there (its links stay: the subjects are the same). */
  async saveOAuthProvider(
    provider: Omit<OAuthProviderRow, "updatedAt">,
    origin: EventOrigin,
  ): Promise<OAuthProviderRow> {
    const values = { ...provider, updatedAt: new Date() };
    return this.db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(oauthProviders)
        .where(and(eq(oauthProviders.companyId, provider.companyId), eq(oauthProviders.slot, provider.slot)))
        .for("update");
      const [row] = await tx
        .insert(oauthProviders)
        .values(values)
        .onConflictDoUpdate({ target: [oauthProviders.companyId, oauthProviders.slot], set: values })
        .returning();
      if (!row) throw new Error("upsert returned no provider");
      await recordEvents(
        tx,
        providerChanged(
          origin,
          row,
          before ? "updated" : "created",
          changedFields(before, row, providerFields),
        ),
      );
      return row;
    });
  }

  async findOAuthProvider(companyId: string, slot: number): Promise<OAuthProviderRow | undefined> {
    const [row] = await this.db
      .select()
      .from(oauthProviders)
      .where(and(eq(oauthProviders.companyId, companyId), eq(oauthProviders.slot, slot)));
    return row;
  }

  listOAuthProviders(companyId: string): Promise<OAuthProviderRow[]> {
    return this.db
      .select()
      .from(oauthProviders)
      .where(eq(oauthProviders.companyId, companyId))
      .orderBy(oauthProviders.slot);
  }

  /** Empties the slot and removes its links; false when it was empty. */
  async deleteOAuthProvider(companyId: string, slot: number, origin: EventOrigin): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.delete(oauthLinks).where(and(eq(oauthLinks.companyId, companyId), eq(oauthLinks.slot, slot)));
      const [deleted] = await tx
        .delete(oauthProviders)
        .where(and(eq(oauthProviders.companyId, companyId), eq(oauthProviders.slot, slot)))
        .returning();
      if (!deleted) return false;
      await recordEvents(tx, providerChanged(origin, deleted, "deleted", []));
      return true;
    });
  }

  async linkOAuthIdentity(
    companyId: string,
    slot: number,
    subject: string,
    userId: string,
    origin: EventOrigin,
  ): Promise<void> {
    await insertUnique(
      this.db.transaction(async (tx) => {
        await tx.insert(oauthLinks).values({ companyId, slot, subject, userId });
        await recordEvents(tx, factorChanged(origin, { companyId, userId, factor: Factor.OAUTH }, "added"));
      }),
      "a link of this provider subject",
    );
  }

  async unlinkOAuthIdentity(
    companyId: string,
    slot: number,
    subject: string,
    origin: EventOrigin,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [deleted] = await tx
        .delete(oauthLinks)
        .where(
          and(
            eq(oauthLinks.companyId, companyId),
            eq(oauthLinks.slot, slot),
            eq(oauthLinks.subject, subject),
          ),
        )
        .returning({ userId: oauthLinks.userId });
      if (!deleted) return false;
      await recordEvents(
        tx,
        factorChanged(origin, { companyId, userId: deleted.userId, factor: Factor.OAUTH }, "removed"),
      );
      return true;
    });
  }

  async findUserByOAuthSubject(
    companyId: string,
    slot: number,
    subject: string,
  ): Promise<StoredUser | undefined> {
    const [row] = await this.db
      .select(storedUser)
      .from(oauthLinks)
      .innerJoin(users, eq(oauthLinks.userId, users.id))
      .where(
        and(eq(oauthLinks.companyId, companyId), eq(oauthLinks.slot, slot), eq(oauthLinks.subject, subject)),
      );
    return row;
  }
}
