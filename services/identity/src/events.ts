import { type EventOrigin, type EventType, newEvent } from "@auth/events";
import { ActorKind, type AdminChangeDetail, type Event, Factor, Outcome } from "@auth/proto/events";
import { CheckOutcome } from "@auth/proto/session";
import type { ContactKindName } from "./schema.js";

/**
 * The security events identity records (docs/decisions.md, "Security events"), as the catalogue of
 * @auth/events types them: each is written by the store in the transaction of its change. Ids,
 * kinds and field names only: never a password, code, hash, login ID, phone or e-mail.
 */

export type { EventOrigin } from "@auth/events";

/** One check of a user's factor: who asked, whose factor, which one, and whether it is the login's first. */
export interface FactorCheck {
  origin: EventOrigin;
  companyId: string;
  /** None when the login ID or credential presented names no user. */
  userId?: string;
  factor: Factor;
  /** The login's first factor (a password, or a passkey in its place); else a second. */
  first: boolean;
  passkeyId?: string;
}

/** A user's event, or, naming no user, the company's. */
const subjectOf = (companyId: string, userId: string | undefined) => userId ?? `company/${companyId}`;

function checkEvent(check: FactorCheck, type: EventType, outcome: Outcome, reason = ""): Event {
  return newEvent("identity", {
    type,
    companyId: check.companyId,
    userId: check.userId,
    subject: subjectOf(check.companyId, check.userId),
    outcome,
    origin: check.origin,
    detail: { factor: { factor: check.factor, reason, passkeyId: check.passkeyId ?? "" } },
  });
}

/**
 * A right factor: auth.second_factor.passed for a second one. A right first factor is no event of
 * its own: the session records the login it leads to (auth.login.succeeded).
 */
export function checkPassed(check: FactorCheck): Event[] {
  return check.first ? [] : [checkEvent(check, "auth.second_factor.passed", Outcome.SUCCEEDED)];
}

/** A factor compared and wrong: auth.login.failed for a first one, auth.second_factor.failed for a second. */
export function checkFailed(check: FactorCheck, reason: string): Event {
  const type = check.first ? "auth.login.failed" : "auth.second_factor.failed";
  return checkEvent(check, type, Outcome.FAILED, reason);
}

/**
 * Why a check under a budget failed (FactorDetail.reason): "wrong" when the budget allowed the
 * comparison and the secret was wrong. Undefined otherwise: the secret was right, or it was never
 * compared (refused by the budget, a captcha asked for first, another check of the session under
 * way). A refused guess costs no write here: a burst at a user records one event, the lock-out
 * (session's auth.account.locked), not one per guess.
 */
export function failureOf(outcome: CheckOutcome, valid: boolean | undefined): string | undefined {
  return outcome === CheckOutcome.ALLOWED && !valid ? "wrong" : undefined;
}

/** auth.password.changed: the user set the password (changed it, reset it by recovery, or set it on first login). */
export function passwordChanged(origin: EventOrigin, companyId: string, userId: string): Event {
  return newEvent("identity", {
    type: "auth.password.changed",
    companyId,
    userId,
    outcome: Outcome.SUCCEEDED,
    origin,
  });
}

/**
 * auth.contact.changed: the user's new phone or e-mail was confirmed and written. The kind only:
 * an address is a login ID, and no event holds one.
 */
export function contactChanged(
  origin: EventOrigin,
  change: { companyId: string; userId: string; kind: ContactKindName },
): Event {
  return newEvent("identity", {
    type: "auth.contact.changed",
    companyId: change.companyId,
    userId: change.userId,
    outcome: Outcome.SUCCEEDED,
    origin,
    detail: { contactChanged: { kind: change.kind } },
  });
}

type AdminType =
  | "admin.company.changed"
  | "admin.policy.changed"
  | "admin.api_key.changed"
  | "admin.user.changed"
  | "admin.factor.changed";

/**
 * An operator's write: about the user when it names one, else about the changed resource
 * ("api_key/<id>"). An update that changed no field changed nothing, and is no event.
 */
export function adminChange(
  origin: EventOrigin,
  type: AdminType,
  where: { companyId: string; userId?: string },
  detail: AdminChangeDetail,
): Event[] {
  if (detail.action === "updated" && detail.fields.length === 0) return [];
  return [
    newEvent("identity", {
      type,
      companyId: where.companyId,
      userId: where.userId,
      subject: where.userId ?? `${detail.resource}/${detail.resourceId}`,
      outcome: Outcome.SUCCEEDED,
      origin,
      detail: { adminChange: detail },
    }),
  ];
}

/** How an operator's admin.factor.changed names each factor in its `fields`. */
const factorFields: Partial<Record<Factor, string>> = {
  [Factor.APP_CODE]: "authenticatorApp",
  [Factor.BACKUP_CODE]: "backupCodes",
  [Factor.PASSKEY]: "passkeys",
  [Factor.OAUTH]: "oauthLinks",
};

/** What happened to a factor: added, its set replaced by a new one, removed, or (a passkey) renamed. */
export type FactorChange = "added" | "reset" | "removed" | "renamed";

/**
 * A change of a user's factor. The user's own is auth.factor.enrolled (a factor added, or a new set
 * of backup codes) or auth.factor.removed; a rename of the user's is no event of the catalogue. An
 * operator's is admin.factor.changed, about the passkey where one changed, else about the user.
 */
export function factorChanged(
  origin: EventOrigin,
  factor: { companyId: string; userId: string; factor: Factor; passkeyId?: string },
  change: FactorChange,
): Event[] {
  const { companyId, userId } = factor;
  if (origin.actor.kind === ActorKind.OPERATOR) {
    return adminChange(
      origin,
      "admin.factor.changed",
      { companyId, userId },
      {
        resource: "factor",
        resourceId: factor.passkeyId ?? userId,
        action: change,
        fields: [factorFields[factor.factor] ?? factor.factor],
      },
    );
  }
  if (change === "renamed") return [];
  return [
    newEvent("identity", {
      type: change === "removed" ? "auth.factor.removed" : "auth.factor.enrolled",
      companyId,
      userId,
      outcome: Outcome.SUCCEEDED,
      origin,
      detail: { factor: { factor: factor.factor, reason: "", passkeyId: factor.passkeyId ?? "" } },
    }),
  ];
}
