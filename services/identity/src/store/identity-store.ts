import { AuthError } from "@auth/errors";
import { type Database, isUniqueViolation } from "@auth/pg";
import type { CompanyPolicy } from "@auth/proto/identity";
import { and, asc, count, eq, getTableColumns, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
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

/** The identity service's tables: companies, API keys and users (and their passkeys, `passkeys`). */
export class IdentityStore {
  readonly #lookups: ReturnType<typeof preparedLookups>;
  readonly passkeys: PasskeyStore;

  constructor(private readonly db: Database<IdentitySchema>) {
    this.#lookups = preparedLookups(db);
    this.passkeys = new PasskeyStore(db);
  }

  async createCompany(company: NewCompany): Promise<CompanyRow> {
    const [row] = await insertUnique(
      this.db.insert(companies).values(company).returning(),
      "a company with this code",
    );
    if (!row) throw new Error("insert returned no company");
    return row;
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
  ): Promise<CompanyRow | undefined> {
    const [row] = await this.db.update(companies).set(changes).where(eq(companies.id, id)).returning();
    return row;
  }

  async createApiKey(companyId: string, keyHash: string, label = ""): Promise<string> {
    const [row] = await insertUnique(
      this.db.insert(apiKeys).values({ companyId, keyHash, label }).returning({ id: apiKeys.id }),
      "this API key",
    );
    if (!row) throw new Error("insert returned no API key");
    return row.id;
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

  /** Ends a key at a time (now for a revocation, later for a rotation's overlap). */
  async endApiKey(
    companyId: string,
    keyId: string,
    change: { revokedAt?: Date; expiresAt?: Date },
  ): Promise<boolean> {
    const updated = await this.db
      .update(apiKeys)
      .set(change)
      .where(and(eq(apiKeys.companyId, companyId), eq(apiKeys.id, keyId)))
      .returning({ id: apiKeys.id });
    return updated.length > 0;
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

  async createUser(user: NewUser): Promise<StoredUser> {
    const [row] = await insertUnique(
      this.db.insert(users).values(user).returning(storedUser),
      "a user with this login name, phone, e-mail or profile",
    );
    if (!row) throw new Error("insert returned no user");
    return row;
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
  ): Promise<StoredUser | undefined> {
    const [row] = await insertUnique(
      this.db
        .update(users)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(eq(users.companyId, companyId), eq(users.id, userId)))
        .returning(storedUser),
      "a user with this login name, phone, e-mail or profile",
    );
    return row;
  }

  async findUserByLoginId(
    companyId: string,
    column: LoginIdColumn,
    value: string,
  ): Promise<StoredUser | undefined> {
    const [row] = await this.#lookups.userByLoginId[column].execute({ companyId, value });
    return row;
  }

  /** Replaces the hash; a password the user chose also ends an administrator's demand for a change. */
  /** `passwordHash` is of the password's NFKC form (PasswordHasher.hashPassword). */
  async setPasswordHash(
    companyId: string,
    userId: string,
    passwordHash: string,
    changes: { passwordChangeRequired?: boolean } = {},
  ): Promise<void> {
    await this.db
      .update(users)
      .set({ passwordHash, passwordNfkc: true, ...changes, updatedAt: new Date() })
      .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
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
  async replaceBackupCodes(companyId: string, userId: string, codeHashes: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.companyId, companyId), eq(users.id, userId)))
        .for("update");
      await tx
        .delete(backupCodes)
        .where(and(eq(backupCodes.companyId, companyId), eq(backupCodes.userId, userId)));
      await tx.insert(backupCodes).values(codeHashes.map((codeHash) => ({ companyId, userId, codeHash })));
    });
  }

  /**
   * Gives the user these hashes as the first set, if the user has no backup codes; false when the
   * user has some (another set won), and nothing changed. Locked as replaceBackupCodes is.
   */
  async addFirstBackupCodes(companyId: string, userId: string, codeHashes: string[]): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.companyId, companyId), eq(users.id, userId)))
        .for("update");
      const [existing] = await tx
        .select({ userId: backupCodes.userId })
        .from(backupCodes)
        .where(and(eq(backupCodes.companyId, companyId), eq(backupCodes.userId, userId)))
        .limit(1);
      if (existing) return false;
      await tx.insert(backupCodes).values(codeHashes.map((codeHash) => ({ companyId, userId, codeHash })));
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

  /** Deletes the code if the user has it; true for exactly one of any number of racing uses. */
  async useBackupCode(companyId: string, userId: string, codeHash: string): Promise<boolean> {
    const deleted = await this.db
      .delete(backupCodes)
      .where(
        and(
          eq(backupCodes.companyId, companyId),
          eq(backupCodes.userId, userId),
          eq(backupCodes.codeHash, codeHash),
        ),
      )
      .returning({ codeHash: backupCodes.codeHash });
    return deleted.length === 1;
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
  async confirmTotp(companyId: string, userId: string, sealedSecret: string, step: number): Promise<boolean> {
    const confirmed = await this.db
      .update(users)
      .set({ totpSecret: sealedSecret, totpPendingSecret: null, totpLastStep: step, updatedAt: new Date() })
      .where(
        and(eq(users.companyId, companyId), eq(users.id, userId), eq(users.totpPendingSecret, sealedSecret)),
      )
      .returning({ id: users.id });
    return confirmed.length === 1;
  }

  /**
   * Uses a time step of the user's authenticator if it is later than the last one used: true for
   * exactly one of any number of racing uses of one code (one conditional update).
   */
  async useTotpStep(companyId: string, userId: string, step: number): Promise<boolean> {
    const used = await this.db
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
    return used.length === 1;
  }

  /** Removes the user's authenticator and any pending one; false when there was neither. */
  async removeTotp(companyId: string, userId: string): Promise<boolean> {
    const removed = await this.db
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
    return removed.length === 1;
  }

  /** Puts a provider in its slot, replacing what was there (its links stay: the subjects are the same). */
  async saveOAuthProvider(provider: Omit<OAuthProviderRow, "updatedAt">): Promise<OAuthProviderRow> {
    const values = { ...provider, updatedAt: new Date() };
    const [row] = await this.db
      .insert(oauthProviders)
      .values(values)
      .onConflictDoUpdate({ target: [oauthProviders.companyId, oauthProviders.slot], set: values })
      .returning();
    if (!row) throw new Error("upsert returned no provider");
    return row;
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
  async deleteOAuthProvider(companyId: string, slot: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.delete(oauthLinks).where(and(eq(oauthLinks.companyId, companyId), eq(oauthLinks.slot, slot)));
      const deleted = await tx
        .delete(oauthProviders)
        .where(and(eq(oauthProviders.companyId, companyId), eq(oauthProviders.slot, slot)))
        .returning({ slot: oauthProviders.slot });
      return deleted.length > 0;
    });
  }

  async linkOAuthIdentity(companyId: string, slot: number, subject: string, userId: string): Promise<void> {
    await insertUnique(
      this.db.insert(oauthLinks).values({ companyId, slot, subject, userId }),
      "a link of this provider subject",
    );
  }

  async unlinkOAuthIdentity(companyId: string, slot: number, subject: string): Promise<boolean> {
    const deleted = await this.db
      .delete(oauthLinks)
      .where(
        and(eq(oauthLinks.companyId, companyId), eq(oauthLinks.slot, slot), eq(oauthLinks.subject, subject)),
      )
      .returning({ subject: oauthLinks.subject });
    return deleted.length > 0;
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
