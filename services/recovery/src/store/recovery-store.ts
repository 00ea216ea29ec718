import { AuthError } from "@auth/errors";
import type { EventOrigin, OriginOf } from "@auth/events";
import { type Clock, issueToken, type KeyValueStore, newRecordId, readToken, sameHash } from "@auth/kv";
import { recoveryEvents } from "../recovery-events.js";

interface LinkTicket {
  companyId: string;
  userId: string;
  loginId: string;
  /**
   * An e-mail change's link: the new e-mail it went to, which its redemption makes the user's;
   * absent from recovery links.
   */
  newEmail?: string;
  tokenHash: string;
  expiresAt: number;
}

/** What a redeemed link was for: a recovery's login ID, or an e-mail change's new e-mail. */
export interface RedeemedLink {
  userId: string;
  loginId: string;
  newEmail?: string;
}

/** A recovery link's events (an e-mail change's link is no recovery: none). */
const eventsOf = (
  ticket: LinkTicket | Omit<LinkTicket, "tokenHash" | "expiresAt">,
  type: Parameters<typeof recoveryEvents>[0],
  origin: EventOrigin,
) => (ticket.newEmail === undefined ? recoveryEvents(type, ticket, origin) : undefined);

/** How long a used-up link is told apart from an unknown one: as long as expired session tokens. */
const expiredLinkMemoryMs = 24 * 60 * 60_000;

const ticketKey = (ticketId: string) => `link:${ticketId}`;
const userLinksKey = (companyId: string, userId: string) => `user-links:${companyId}:${userId}`;

/** Recovery link tickets and control-question attempt counters, in the recovery service's key space. */
export class RecoveryStore {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly clock: Clock,
  ) {}

  /**
   * Stores a single-use link ticket, which starts a recovery (or, with `newEmail`, confirms an
   * e-mail change); returns the token for the link.
   */
  async issueLink(
    ticket: Omit<LinkTicket, "tokenHash" | "expiresAt">,
    lifetimeMs: number,
    origin: EventOrigin,
  ): Promise<string> {
    const ticketId = newRecordId();
    const issued = issueToken(ticketId);
    const record: LinkTicket = {
      ...ticket,
      tokenHash: issued.hash,
      expiresAt: this.clock.now() + lifetimeMs,
    };
    await this.kv.set(
      ticketKey(ticketId),
      JSON.stringify(record),
      lifetimeMs + expiredLinkMemoryMs,
      eventsOf(ticket, "auth.recovery.started", origin),
    );
    await this.kv.addToSet(userLinksKey(ticket.companyId, ticket.userId), ticketId, lifetimeMs);
    return issued.token;
  }

  /** Ends the user's links not yet used (the password changed); returns how many there were. */
  async revokeUserLinks(companyId: string, userId: string): Promise<number> {
    const key = userLinksKey(companyId, userId);
    let revoked = 0;
    for (const ticketId of await this.kv.setMembers(key)) {
      if (await this.kv.delete(ticketKey(ticketId))) revoked += 1;
      await this.kv.removeFromSet(key, ticketId);
    }
    return revoked;
  }

  /**
   * Uses up a link token, which finishes its recovery (or confirms its e-mail change): it works
   * once, within its lifetime, for its company, and only as the kind of link it is (`emailChange`).
   */
  async redeemLink(
    companyId: string,
    token: string,
    originOf: OriginOf,
    emailChange = false,
  ): Promise<RedeemedLink> {
    const presented = readToken(token);
    const raw = presented ? await this.kv.get(ticketKey(presented.id)) : null;
    const ticket = raw === null ? null : (JSON.parse(raw) as LinkTicket);
    if (
      !presented ||
      raw === null ||
      !ticket ||
      !sameHash(ticket.tokenHash, presented.hash) ||
      ticket.companyId !== companyId ||
      (ticket.newEmail !== undefined) !== emailChange
    ) {
      throw new AuthError("auth.token.invalid");
    }
    if (ticket.expiresAt <= this.clock.now()) throw new AuthError("auth.token.expired");
    // Of two requests with the same link, only one removes the ticket.
    const events = eventsOf(ticket, "auth.recovery.finished", originOf(ticket.userId));
    if (!(await this.kv.compareAndSet(ticketKey(presented.id), raw, null, 0, events)))
      throw new AuthError("auth.token.invalid");
    await this.kv.removeFromSet(userLinksKey(ticket.companyId, ticket.userId), presented.id);
    return { userId: ticket.userId, loginId: ticket.loginId, newEmail: ticket.newEmail };
  }
}
