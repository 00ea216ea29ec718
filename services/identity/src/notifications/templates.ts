import { NotificationEvent, type NotificationTemplate } from "@auth/proto/identity";
import { z } from "zod";

/** The events a notice is sent for (docs/security.md, "Notifications"). */
export type KnownEvent = Exclude<
  NotificationEvent,
  NotificationEvent.UNSPECIFIED | NotificationEvent.UNRECOGNIZED
>;

/** The event's name in the dev outbox and the metric's label. */
export const eventNames: Record<KnownEvent, string> = {
  [NotificationEvent.PASSWORD_CHANGED]: "password_changed",
  [NotificationEvent.RECOVERY_STARTED]: "recovery_started",
  [NotificationEvent.RECOVERY_COMPLETED]: "recovery_completed",
  [NotificationEvent.BACKUP_CODES_ISSUED]: "backup_codes_issued",
  [NotificationEvent.LOCKED_OUT]: "locked_out",
  [NotificationEvent.AUTHENTICATOR_APP_ADDED]: "authenticator_app_added",
  [NotificationEvent.AUTHENTICATOR_APP_REMOVED]: "authenticator_app_removed",
  [NotificationEvent.PASSKEY_ADDED]: "passkey_added",
  [NotificationEvent.PASSKEY_RENAMED]: "passkey_renamed",
  [NotificationEvent.PASSKEY_REMOVED]: "passkey_removed",
  [NotificationEvent.PASSKEY_CLONE_SUSPECTED]: "passkey_clone_suspected",
};

export interface Wording {
  subject: string;
  body: string;
  smsText: string;
}

// Each tells the user what happened, when, and what to do if it was not them (NIST SP 800-63B-4
// 4.2.3, 4.6); none holds a secret, and no placeholder can bring one in.
const notYou =
  "If this was not you, start access recovery on the {company} login page or contact your administrator.";
const defaults: Record<KnownEvent, Wording> = {
  [NotificationEvent.PASSWORD_CHANGED]: {
    subject: "Your {company} password was changed",
    body: `The password of your {company} account was changed at {time}.\n\n${notYou}`,
    smsText:
      "{company}: your password was changed at {time}. Not you? Start access recovery or contact your administrator.",
  },
  [NotificationEvent.RECOVERY_STARTED]: {
    subject: "Access recovery of your {company} account started",
    body: "An access recovery of your {company} account started at {time}.\n\nIf this was not you, your password stays as it is unless the recovery completes; contact your administrator.",
    smsText:
      "{company}: an access recovery of your account started at {time}. Not you? Contact your administrator.",
  },
  [NotificationEvent.RECOVERY_COMPLETED]: {
    subject: "Access to your {company} account was recovered",
    body: "Access to your {company} account was recovered at {time}: a new password was set and every session of the account ended.\n\nIf this was not you, contact your administrator at once.",
    smsText:
      "{company}: access to your account was recovered at {time} with a new password. Not you? Contact your administrator at once.",
  },
  [NotificationEvent.BACKUP_CODES_ISSUED]: {
    subject: "New backup codes for your {company} account",
    body: `A new set of backup codes for your {company} account was issued at {time}; any codes issued before no longer work.\n\n${notYou}`,
    smsText:
      "{company}: new backup codes were issued for your account at {time}. Not you? Contact your administrator.",
  },
  [NotificationEvent.LOCKED_OUT]: {
    subject: "Your {company} account is locked",
    body: `Your {company} account was locked at {time} after too many failed attempts to sign in. It unlocks by itself after a while; after very many failed attempts in a row, only when you recover access.\n\n${notYou}`,
    smsText:
      "{company}: your account was locked at {time} after failed sign-in attempts. Not you? Start access recovery or contact your administrator.",
  },
  [NotificationEvent.AUTHENTICATOR_APP_ADDED]: {
    subject: "An authenticator app was set up for your {company} account",
    body: `An authenticator app became the second factor of your {company} account at {time}; sign-ins now ask for its code instead of a code by SMS.\n\nIf this was not you, contact your administrator at once: they can remove the app.`,
    smsText:
      "{company}: an authenticator app was set up for your account at {time}. Not you? Contact your administrator at once.",
  },
  [NotificationEvent.AUTHENTICATOR_APP_REMOVED]: {
    subject: "The authenticator app of your {company} account was removed",
    body: `Your administrator removed the authenticator app of your {company} account at {time}, and every session of the account ended.\n\n${notYou}`,
    smsText:
      "{company}: the authenticator app of your account was removed at {time}. Not you? Contact your administrator.",
  },
  [NotificationEvent.PASSKEY_ADDED]: {
    subject: "A passkey was added to your {company} account",
    body: `A passkey was added to your {company} account at {time}; it can now be used to sign in.\n\nIf this was not you, contact your administrator at once: they can remove the passkey.`,
    smsText:
      "{company}: a passkey was added to your account at {time}. Not you? Contact your administrator at once.",
  },
  [NotificationEvent.PASSKEY_RENAMED]: {
    subject: "A passkey of your {company} account was renamed",
    body: `One of the passkeys of your {company} account was renamed at {time}.\n\n${notYou}`,
    smsText:
      "{company}: a passkey of your account was renamed at {time}. Not you? Contact your administrator.",
  },
  [NotificationEvent.PASSKEY_REMOVED]: {
    subject: "A passkey was removed from your {company} account",
    body: `A passkey was removed from your {company} account at {time}; it can no longer be used to sign in.\n\n${notYou}`,
    smsText:
      "{company}: a passkey was removed from your account at {time}. Not you? Contact your administrator.",
  },
  [NotificationEvent.PASSKEY_CLONE_SUSPECTED]: {
    subject: "A passkey of your {company} account may have been copied",
    body: `At {time}, a passkey of your {company} account signed in with a counter that did not grow, which a copied key does. The passkey is refused from now on; sign in another way, and ask your administrator to remove it.\n\nIf you did not try to sign in then, contact your administrator at once.`,
    smsText:
      "{company}: a passkey of your account may have been copied ({time}) and is refused from now on. Contact your administrator.",
  },
};

const placeholders = ["company", "time"] as const;
const placeholder = /\{([^{}]*)\}/g;

function fill(template: string, values: Record<(typeof placeholders)[number], string>): string {
  return template.replace(placeholder, (whole, name: string) =>
    name in values ? values[name as keyof typeof values] : whole,
  );
}

/** The notice's wording: the company's template where it has one, the service's otherwise; filled. */
export function wordingOf(
  event: KnownEvent,
  templates: readonly NotificationTemplate[],
  values: { company: string; time: Date },
): Wording {
  const own = templates.find((template) => template.event === event);
  const base = defaults[event];
  const filled = {
    company: values.company,
    time: `${values.time.toISOString().slice(0, 16).replace("T", " ")} UTC`,
  };
  return {
    subject: fill(own?.subject ?? base.subject, filled),
    body: fill(own?.body ?? base.body, filled),
    smsText: fill(own?.smsText ?? base.smsText, filled),
  };
}

const onlyKnownPlaceholders = (text: string) =>
  [...text.matchAll(placeholder)].every((match) =>
    (placeholders as readonly string[]).includes(match[1] ?? ""),
  );
const templateText = (max: number) =>
  z
    .string()
    .min(1, "must not be empty")
    .max(max)
    .refine(onlyKnownPlaceholders, "may use only the placeholders {company} and {time}")
    .optional();

const knownEvent = z.enum(NotificationEvent).refine((event) => event in eventNames, {
  message: `must be one of ${Object.values(eventNames)
    .map((name) => name.toUpperCase())
    .join(", ")}`,
});

/** A company's templates as an administrator sends them: one per event at most. */
export const notificationTemplatesInput = z
  .array(
    z.object({
      event: knownEvent,
      subject: templateText(200),
      body: templateText(5_000),
      smsText: templateText(320),
    }),
  )
  .max(Object.keys(eventNames).length)
  .refine(
    (templates) => new Set(templates.map((t) => t.event)).size === templates.length,
    "must not repeat an event",
  )
  .default([]);
