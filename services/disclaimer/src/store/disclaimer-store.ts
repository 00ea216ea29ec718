import { AuthError } from "@auth/errors";
import type { EventOrigin } from "@auth/events";
import { recordEvents } from "@auth/events/pg";
import { type Database, isUniqueViolation } from "@auth/pg";
import type { Disclaimer } from "@auth/proto/disclaimer";
import { and, asc, desc, eq, notExists, type Placeholder, sql } from "drizzle-orm";
import { acceptances, type DisclaimerSchema, disclaimers, disclaimerVersions } from "../schema.js";
import { acceptedEvent, changedEvent } from "./disclaimer-events.js";

export interface NewDisclaimer {
  companyId: string;
  code: string;
  title: string;
  description: string;
  link: string;
}

export interface Acceptance {
  companyId: string;
  userId: string;
  codes: string[];
  clientAddress: string;
}

type Reader = Pick<Database<DisclaimerSchema>, "select">;

/** The company's active disclaimers whose current version the user has not accepted, by code. */
function requiredFor(db: Reader, companyId: string | Placeholder, userId: string | Placeholder) {
  return db
    .select({
      id: disclaimers.id,
      code: disclaimers.code,
      version: disclaimers.currentVersion,
      title: disclaimerVersions.title,
      description: disclaimerVersions.description,
      link: disclaimerVersions.link,
      active: disclaimers.active,
    })
    .from(disclaimers)
    .innerJoin(
      disclaimerVersions,
      and(
        eq(disclaimerVersions.disclaimerId, disclaimers.id),
        eq(disclaimerVersions.version, disclaimers.currentVersion),
      ),
    )
    .where(
      and(
        eq(disclaimers.companyId, companyId),
        eq(disclaimers.active, true),
        notExists(
          db
            .select({ one: acceptances.userId })
            .from(acceptances)
            .where(
              and(
                eq(acceptances.disclaimerId, disclaimers.id),
                eq(acceptances.version, disclaimers.currentVersion),
                eq(acceptances.userId, userId),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(disclaimers.code));
}

const withoutId = ({ id: _id, ...disclaimer }: Disclaimer & { id: string }): Disclaimer => disclaimer;

/** What a new version may change besides its number. */
const versionFields = ["title", "description", "link"] as const;

/**
 * Disclaimers, their versions and the acceptances, in the disclaimer service's database. Each
 * change is recorded as a security event in its own transaction, by `origin`: who asked for it
 * (docs/decisions.md, "Security events").
 */
export class DisclaimerStore {
  /** Every login asks for it: a named prepared statement, built once and planned once per connection. */
  readonly #required: ReturnType<ReturnType<typeof requiredFor>["prepare"]>;

  constructor(private readonly db: Database<DisclaimerSchema>) {
    this.#required = requiredFor(db, sql.placeholder("companyId"), sql.placeholder("userId")).prepare(
      "disclaimer_required_for_user",
    );
  }

  async create(disclaimer: NewDisclaimer, origin: EventOrigin): Promise<Disclaimer> {
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(disclaimers)
          .values({ companyId: disclaimer.companyId, code: disclaimer.code })
          .returning({ id: disclaimers.id });
        if (!row) throw new Error("insert returned no disclaimer");
        const { title, description, link } = disclaimer;
        await tx
          .insert(disclaimerVersions)
          .values({ disclaimerId: row.id, version: 1, title, description, link });
        await recordEvents(tx, [changedEvent(disclaimer, "created", [...versionFields], origin)]);
        return { code: disclaimer.code, title, description, link, version: 1, active: true };
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AuthError("resource.exists", { detail: "the company has a disclaimer with this code" });
      }
      throw error;
    }
  }

  async listRequired(companyId: string, userId: string): Promise<Disclaimer[]> {
    return (await this.#required.execute({ companyId, userId })).map(withoutId);
  }

  /**
   * Stores the acceptance of every required disclaimer when the codes cover them all; otherwise
   * stores nothing and returns what is missing. An acceptance stored meanwhile (the same request's,
   * sent twice) is not stored, nor recorded, again.
   */
  async accept(
    acceptance: Acceptance,
    origin: EventOrigin,
  ): Promise<{ missing: Disclaimer[]; acceptedAt: Date }> {
    return this.db.transaction(async (tx) => {
      const required = await requiredFor(tx, acceptance.companyId, acceptance.userId);
      const given = new Set(acceptance.codes);
      const missing = required.filter((disclaimer) => !given.has(disclaimer.code));
      const acceptedAt = new Date();
      if (missing.length > 0 || required.length === 0) return { missing: missing.map(withoutId), acceptedAt };
      const stored = await tx
        .insert(acceptances)
        .values(
          required.map((disclaimer) => ({
            disclaimerId: disclaimer.id,
            version: disclaimer.version,
            companyId: acceptance.companyId,
            userId: acceptance.userId,
            acceptedAt,
            clientAddress: acceptance.clientAddress,
          })),
        )
        .onConflictDoNothing()
        .returning({ disclaimerId: acceptances.disclaimerId });
      const codes = required
        .filter((disclaimer) => stored.some((row) => row.disclaimerId === disclaimer.id))
        .map((disclaimer) => disclaimer.code);
      if (codes.length > 0) await recordEvents(tx, [acceptedEvent(acceptance, codes, origin, acceptedAt)]);
      return { missing: [], acceptedAt };
    });
  }

  /** A new current version: every user has to accept the disclaimer again. */
  async publishVersion(disclaimer: NewDisclaimer, origin: EventOrigin): Promise<Disclaimer> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({
          id: disclaimers.id,
          version: disclaimers.currentVersion,
          active: disclaimers.active,
          current: {
            title: disclaimerVersions.title,
            description: disclaimerVersions.description,
            link: disclaimerVersions.link,
          },
        })
        .from(disclaimers)
        .innerJoin(
          disclaimerVersions,
          and(
            eq(disclaimerVersions.disclaimerId, disclaimers.id),
            eq(disclaimerVersions.version, disclaimers.currentVersion),
          ),
        )
        .where(and(eq(disclaimers.companyId, disclaimer.companyId), eq(disclaimers.code, disclaimer.code)))
        .for("update", { of: disclaimers });
      if (!row) throw new AuthError("resource.notfound", { detail: "no disclaimer with this code" });
      const version = row.version + 1;
      const { title, description, link } = disclaimer;
      await tx.insert(disclaimerVersions).values({ disclaimerId: row.id, version, title, description, link });
      await tx.update(disclaimers).set({ currentVersion: version }).where(eq(disclaimers.id, row.id));
      const changed = versionFields.filter((field) => disclaimer[field] !== row.current[field]);
      await recordEvents(tx, [
        changedEvent(disclaimer, "version_published", ["version", ...changed], origin),
      ]);
      return { code: disclaimer.code, title, description, link, version, active: row.active };
    });
  }

  /** Deactivating an inactive disclaimer changes nothing, and records nothing. */
  async deactivate(companyId: string, code: string, origin: EventOrigin): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ id: disclaimers.id, active: disclaimers.active })
        .from(disclaimers)
        .where(and(eq(disclaimers.companyId, companyId), eq(disclaimers.code, code)))
        .for("update");
      if (!row) throw new AuthError("resource.notfound", { detail: "no disclaimer with this code" });
      if (!row.active) return;
      await tx.update(disclaimers).set({ active: false }).where(eq(disclaimers.id, row.id));
      await recordEvents(tx, [changedEvent({ companyId, code }, "deactivated", ["active"], origin)]);
    });
  }

  async list(companyId: string): Promise<Disclaimer[]> {
    return this.db
      .select({
        code: disclaimers.code,
        version: disclaimers.currentVersion,
        title: disclaimerVersions.title,
        description: disclaimerVersions.description,
        link: disclaimerVersions.link,
        active: disclaimers.active,
      })
      .from(disclaimers)
      .innerJoin(
        disclaimerVersions,
        and(
          eq(disclaimerVersions.disclaimerId, disclaimers.id),
          eq(disclaimerVersions.version, disclaimers.currentVersion),
        ),
      )
      .where(eq(disclaimers.companyId, companyId))
      .orderBy(asc(disclaimers.code));
  }

  /** Every company with an active disclaimer, once each. */
  async companiesWithDisclaimers(): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ companyId: disclaimers.companyId })
      .from(disclaimers)
      .where(eq(disclaimers.active, true));
    return rows.map((row) => row.companyId);
  }

  async listAcceptances(filter: { companyId: string; code?: string; userId?: string; limit: number }) {
    return this.db
      .select({
        code: disclaimers.code,
        version: acceptances.version,
        userId: acceptances.userId,
        acceptedAt: acceptances.acceptedAt,
        clientAddress: acceptances.clientAddress,
      })
      .from(acceptances)
      .innerJoin(disclaimers, eq(acceptances.disclaimerId, disclaimers.id))
      .where(
        and(
          eq(acceptances.companyId, filter.companyId),
          filter.code === undefined ? undefined : eq(disclaimers.code, filter.code),
          filter.userId === undefined ? undefined : eq(acceptances.userId, filter.userId),
        ),
      )
      .orderBy(desc(acceptances.acceptedAt))
      .limit(filter.limit);
  }
}
