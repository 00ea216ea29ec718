import { AuthError } from "@auth/errors";
import { type AsyncService, eventOriginOf } from "@auth/grpc-kit";
import { normalizeEmail } from "@auth/login-ids";
import { ContactKind, type IdentityServiceService, NotificationEvent } from "@auth/proto/identity";
import { SessionState, TokenStatus } from "@auth/proto/session";
import type { NoticeAddresses, Notifier } from "../notifications/notifier.js";
import type { KnownEvent } from "../notifications/templates.js";
import { applyContactChangeRequest, beginContactChangeRequest } from "../requests.js";
import type { CompanyRow, ContactKindName, UserRow } from "../schema.js";
import type { IdentityDependencies } from "../server.js";
import { contactUnavailable } from "../store/contact-change-store.js";
import { parseStorableRequest } from "../text-fields.js";
import { storedPhone } from "../users.js";
import type { Lookups } from "./lookups.js";

/**
 * How long a new address waits for its confirmation (docs/decisions.md, "Changing an address"): as
 * long as its e-mail link lives; a phone's codes live 5 minutes each, resent within it.
 */
export const contactChangeLifetimeSeconds = 15 * 60;

const kindNames = { [ContactKind.PHONE]: "phone", [ContactKind.EMAIL]: "email" } as const satisfies Record<
  ContactKind.PHONE | ContactKind.EMAIL,
  ContactKindName
>;

/** The address as the user's row would keep it: a login ID of its kind; anything else is a bad request. */
function addressOf(kind: ContactKindName, raw: string, company: CompanyRow): string {
  if (kind === "phone") return storedPhone(raw, company.policy);
  const email = normalizeEmail(raw);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new AuthError("request.validation.failed", { detail: "email: must be an e-mail address" });
  return email;
}

/** Who is told of a change, at the old address (docs/security.md, "Notifications"). */
function noticeOf(kind: ContactKindName, before: UserRow): { event: KnownEvent; to: NoticeAddresses } {
  const email = before.email ?? undefined;
  const phone = before.phone ?? undefined;
  // The old phone by SMS, and a copy by e-mail; the old e-mail, or the phone for a user who had none.
  return kind === "phone"
    ? { event: NotificationEvent.PHONE_CHANGED, to: { email, phone } }
    : { event: NotificationEvent.EMAIL_CHANGED, to: email ? { email } : { phone } };
}

/**
 * Changing the phone or the e-mail of the signed-in user (docs/api-contract.md, "Changing the phone
 * or the e-mail"): identity keeps the new address pending, for the token's session's user as the
 * session service tells it; the otp or recovery service, which sent the code or the link to it,
 * makes it the user's once its confirmation comes back.
 */
export function contactChangeHandlers(
  { store, session }: IdentityDependencies,
  { companyById, recipient }: Lookups,
  notifier: Notifier,
) {
  /** The user of the token's authorized session of the company. */
  async function sessionUser(companyId: string, sessionToken: string) {
    const { status, session: found } = await session.introspectSession({ sessionToken });
    if (
      status !== TokenStatus.ACTIVE ||
      !found ||
      found.companyId !== companyId ||
      found.state !== SessionState.AUTHORIZED
    )
      throw new AuthError("auth.token.invalid", {
        detail: "the token is of no authorized session of the company",
      });
    return (await recipient(companyId, found.userId)).user;
  }

  return {
    async beginContactChange(request) {
      const input = parseStorableRequest(beginContactChangeRequest, request);
      const company = await companyById(input.companyId);
      const user = await sessionUser(company.id, input.sessionToken);
      const kind = kindNames[input.kind];
      const address = addressOf(kind, input.address, company);
      if (user[kind] === address)
        throw new AuthError("request.validation.failed", { detail: `${kind}: is the user's own already` });
      if (await store.contactChanges.takenByOther(company.id, user.id, address)) throw contactUnavailable();
      await store.contactChanges.begin(
        { companyId: company.id, userId: user.id, kind, address },
        contactChangeLifetimeSeconds,
      );
      return { userId: user.id, address };
    },

    async applyContactChange(request, context) {
      const input = parseStorableRequest(applyContactChangeRequest, request);
      const kind = kindNames[input.kind];
      // The otp or recovery service calls, for the user whose code or link came back.
      const before = await store.contactChanges.apply(
        { ...input, kind },
        eventOriginOf(context, input.userId),
      );
      if (!before) return { applied: false };
      const { event, to } = noticeOf(kind, before);
      notifier.notify(input.companyId, input.userId, event, { to });
      return { applied: true };
    },
  } satisfies Partial<AsyncService<typeof IdentityServiceService>>;
}
