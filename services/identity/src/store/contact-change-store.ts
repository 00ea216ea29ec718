import { AuthError } from "@auth/errors";
import { recordEvents } from "@auth/events/pg";
import { type Database, isUniqueViolation } from "@auth/pg";
import { and, eq, gt, ne, or, sql } from "drizzle-orm";
import { contactChanged, type EventOrigin } from "../events.js";
import { type ContactKindName, contactChanges, type IdentitySchema, type UserRow, users } from "../schema.js";

/** Another user's login ID: refused without saying whose (docs/api-contract.md, "Changing the phone or the e-mail"). */
export const contactUnavailable = () =>
  new AuthError("auth.contact.unavailable", { detail: "the address is another user's login ID" });

// biome-ignore lint/suspicious/noExplicitAny: the store's database, or a transaction of it
type Reader = Database<any>;

/** Whether another user of the company signs in with the address: as a phone, an e-mail or a login name. */
async function takenByOther(
  db: Reader,
  companyId: string,
  userId: string,
  address: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        ne(users.id, userId),
        or(eq(users.phone, address), eq(users.email, address), eq(users.loginName, address)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The column a kind of address is kept in. */
const columnOf = { phone: "phone", email: "email" } as const satisfies Record<ContactKindName, keyof UserRow>;

/**
 * The users' pending changes of phone and e-mail (docs/decisions.md, "Changing an address"): kept
 * until the code or the link sent to the new address comes back, then written to the user's row.
 */
export class ContactChangeStore {
  constructor(private readonly db: Database<IdentitySchema>) {}

  /** Whether another user of the company signs in with the address now. */
  takenByOther(companyId: string, userId: string, address: string): Promise<boolean> {
    return takenByOther(this.db, companyId, userId, address);
  }

  /** Keeps the address as the user's pending change of its kind, replacing any earlier one. */
  async begin(
    change: { companyId: string; userId: string; kind: ContactKindName; address: string },
    lifetimeSeconds: number,
  ): Promise<void> {
    const expiresAt = sql`now() + make_interval(secs => ${lifetimeSeconds})`;
    await this.db
      .insert(contactChanges)
      .values({ ...change, expiresAt })
      .onConflictDoUpdate({
        target: [contactChanges.companyId, contactChanges.userId, contactChanges.kind],
        set: { address: change.address, expiresAt },
      });
  }

  /** The user's pending address of the kind, unless it expired. */
  async pending(companyId: string, userId: string, kind: ContactKindName): Promise<string | undefined> {
    const [row] = await this.db
      .select({ address: contactChanges.address })
      .from(contactChanges)
      .where(
        and(
          eq(contactChanges.companyId, companyId),
          eq(contactChanges.userId, userId),
          eq(contactChanges.kind, kind),
          gt(contactChanges.expiresAt, sql`now()`),
        ),
      );
    return row?.address;
  }

  /**
   * Writes the pending address to the user's row, once: only while it is pending, unexpired, for
   * this very address, and no other user signs in with it. The unique index of the column decides
   * between users racing for one address: the later write fails, and is auth.contact.unavailable.
   * The change's auth.contact.changed is recorded in the same transaction. Returns the user's row
   * before the change; undefined when nothing of the kind was pending.
   */
  async apply(
    change: { companyId: string; userId: string; kind: ContactKindName; address: string },
    origin: EventOrigin,
  ): Promise<UserRow | undefined> {
    const { companyId, userId, kind, address } = change;
    try {
      return await this.db.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(users)
          .where(and(eq(users.companyId, companyId), eq(users.id, userId)))
          .for("update");
        if (!before) return undefined;
        const taken = await tx
          .delete(contactChanges)
          .where(
            and(
              eq(contactChanges.companyId, companyId),
              eq(contactChanges.userId, userId),
              eq(contactChanges.kind, kind),
              eq(contactChanges.address, address),
              gt(contactChanges.expiresAt, sql`now()`),
            ),
          )
          .returning({ address: contactChanges.address });
        if (taken.length === 0) return undefined;
        if (await takenByOther(tx, companyId, userId, address)) throw contactUnavailable();
        await tx
          .update(users)
          .set({ [columnOf[kind]]: address, updatedAt: new Date() })
          .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
        await recordEvents(tx, [contactChanged(origin, { companyId, userId, kind })]);
        return before;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw contactUnavailable();
      throw error;
    }
  }
}
