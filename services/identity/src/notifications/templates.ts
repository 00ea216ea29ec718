import { NotificationEvent } from "@auth/proto/identity";
import { z } from "zod";

/** The events a notice is sent for (docs/security.md, "Notifications"). */
export type KnownEvent = Exclude<
  NotificationEvent,
  NotificationEvent.UNSPECIFIED | NotificationEvent.UNRECOGNIZED
>;

/** The event's name in the dev outbox, the metric's label and the `notices` catalogue's keys. */
export const eventNames = {
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
  [NotificationEvent.PHONE_CHANGED]: "phone_changed",
  [NotificationEvent.EMAIL_CHANGED]: "email_changed",
  [NotificationEvent.NEW_DEVICE]: "new_device",
} as const satisfies Record<KnownEvent, string>;

/**
 * The placeholders of a notice's template: the company's name and when it happened, and for a new
 * device's notice the device ("Chrome on Linux").
 */
const placeholders = ["company", "time"] as const;
export const eventPlaceholders = (event: NotificationEvent): readonly string[] =>
  event === NotificationEvent.NEW_DEVICE ? [...placeholders, "device"] : placeholders;
const placeholder = /\{([^{}]*)\}/g;

const usesOnly = (text: string | undefined, allowed: readonly string[]) =>
  text === undefined || [...text.matchAll(placeholder)].every((match) => allowed.includes(match[1] ?? ""));
const templateText = (max: number) => z.string().min(1, "must not be empty").max(max).optional();

const knownEvent = z.enum(NotificationEvent).refine((event) => event in eventNames, {
  message: `must be one of ${Object.values(eventNames)
    .map((name) => name.toUpperCase())
    .join(", ")}`,
});

const parts = ["subject", "body", "smsText"] as const;

/**
 * A company's templates (CompanyPolicy.notification_templates) as an administrator sends them: one
 * per event at most, {company} and {time} their only placeholders, and {device} in NEW_DEVICE's.
 * Identity reads them as texts of the company's default language (single-templates.ts).
 */
export const notificationTemplatesInput = z
  .array(
    z
      .object({
        event: knownEvent,
        subject: templateText(200),
        body: templateText(5_000),
        smsText: templateText(320),
      })
      .superRefine((template, context) => {
        const allowed = eventPlaceholders(template.event);
        for (const part of parts)
          if (!usesOnly(template[part], allowed))
            context.addIssue({
              code: "custom",
              path: [part],
              message: `may use only the placeholders ${allowed.map((name) => `{${name}}`).join(", ")}`,
            });
      }),
  )
  .max(Object.keys(eventNames).length)
  .refine(
    (templates) => new Set(templates.map((t) => t.event)).size === templates.length,
    "must not repeat an event",
  )
  .default([]);
