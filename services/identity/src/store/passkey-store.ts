import { recordEvents } from "@auth/events/pg";
import { type Database, isUniqueViolation } from "@auth/pg";
import { Factor } from "@auth/proto/events";
import { and, asc, eq, lt, not, or } from "drizzle-orm";
import {
  checkPassed,
  type EventOrigin,
  type FactorChange,
  type FactorCheck,
  factorChanged,
} from "../events.js";
import { type IdentitySchema, type PasskeyRow, passkeys } from "../schema.js";

export type NewPasskey = Pick<
  PasskeyRow,
  | "companyId"
  | "userId"
  | "credentialId"
  | "publicKey"
  | "signCount"
  | "transports"
  | "backedUp"
  | "userVerified"
  | "name"
>;

/** What a verified assertion says of its credential. */
export interface Assertion {
  signCount: number;
  userVerified: boolean;
  backedUp: boolean;
}

/** The users' passkeys (docs/decisions.md, "Passkeys"): one row per credential, unique in its company. */
export class PasskeyStore {
  constructor(private readonly db: Database<IdentitySchema>) {}

  /** Stores a new credential; undefined when its id is already registered in the company. */
  async add(passkey: NewPasskey, origin: EventOrigin): Promise<PasskeyRow | undefined> {
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx.insert(passkeys).values(passkey).returning();
        if (row) await recordEvents(tx, changeOf(origin, row, "added"));
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  /** The user's passkeys, oldest first. */
  listOfUser(companyId: string, userId: string): Promise<PasskeyRow[]> {
    return this.db
      .select()
      .from(passkeys)
      .where(and(eq(passkeys.companyId, companyId), eq(passkeys.userId, userId)))
      .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  }

  async findByCredentialId(companyId: string, credentialId: string): Promise<PasskeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(passkeys)
      .where(and(eq(passkeys.companyId, companyId), eq(passkeys.credentialId, credentialId)));
    return row;
  }

  /**
   * Records a verified assertion if its sign counter grew (or both it and the stored one are 0, an
   * authenticator that keeps none), in one conditional update: of parallel assertions with one
   * counter value, one moves it. False when the counter did not grow, or the credential is
   * clone-suspect or gone.
   */
  async recordAssertion(check: FactorCheck & { passkeyId: string }, assertion: Assertion): Promise<boolean> {
    const { companyId, passkeyId: id } = check;
    return this.db.transaction(async (tx) => {
      const used = await tx
        .update(passkeys)
        .set({
          signCount: assertion.signCount,
          backedUp: assertion.backedUp,
          // Whether the user was ever verified: an assertion without verification forgets nothing.
          ...(assertion.userVerified ? { userVerified: true } : {}),
          lastUsedAt: new Date(),
        })
        .where(
          and(
            eq(passkeys.companyId, companyId),
            eq(passkeys.id, id),
            not(passkeys.cloneSuspected),
            or(
              lt(passkeys.signCount, assertion.signCount),
              assertion.signCount === 0 ? eq(passkeys.signCount, 0) : undefined,
            ),
          ),
        )
        .returning({ id: passkeys.id });
      if (used.length !== 1) return false;
      await recordEvents(tx, checkPassed(check));
      return true;
    });
  }

  /** Marks the credential clone-suspect; true only for the call that marked it (the user is told once). */
  async markCloneSuspected(companyId: string, id: string): Promise<boolean> {
    const marked = await this.db
      .update(passkeys)
      .set({ cloneSuspected: true })
      .where(and(eq(passkeys.companyId, companyId), eq(passkeys.id, id), not(passkeys.cloneSuspected)))
      .returning({ id: passkeys.id });
    return marked.length === 1;
  }

  /** False when the user has no passkey of that id. */
  async rename(
    companyId: string,
    userId: string,
    id: string,
    name: string,
    origin: EventOrigin,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [renamed] = await tx
        .update(passkeys)
        .set({ name })
        .where(and(eq(passkeys.companyId, companyId), eq(passkeys.userId, userId), eq(passkeys.id, id)))
        .returning();
      if (!renamed) return false;
      await recordEvents(tx, changeOf(origin, renamed, "renamed"));
      return true;
    });
  }

  /** False when the user has no passkey of that id. */
  async remove(companyId: string, userId: string, id: string, origin: EventOrigin): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [removed] = await tx
        .delete(passkeys)
        .where(and(eq(passkeys.companyId, companyId), eq(passkeys.userId, userId), eq(passkeys.id, id)))
        .returning();
      if (!removed) return false;
      await recordEvents(tx, changeOf(origin, removed, "removed"));
      return true;
    });
  }
}

const changeOf = (origin: EventOrigin, row: PasskeyRow, change: FactorChange) =>
  factorChanged(
    origin,
    { companyId: row.companyId, userId: row.userId, factor: Factor.PASSKEY, passkeyId: row.id },
    change,
  );
