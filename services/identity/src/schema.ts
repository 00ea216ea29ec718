import { eventOutbox } from "@auth/events/pg";
import type { CompanyPolicy } from "@auth/proto/identity";
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";

/** The security events not yet relayed (docs/decisions.md, "Security events"): migrated with the service's tables. */
export { eventOutbox };

export const companies = pgTable("companies", {
  id: uuid("id").primaryKey().defaultRandom(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
  suspended: boolean("suspended").notNull().default(false),
  policy: jsonb("policy").$type<CompanyPolicy>().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id),
    keyHash: text("key_hash").notNull().unique(),
    label: text("label").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** Set when the key was rotated: it keeps working until then. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (table) => [index("api_keys_company_idx").on(table.companyId)],
);

export type UserStatusName = "active" | "restricted" | "closed" | "denied";

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id),
    role: text("role").notNull(),
    status: text("status").$type<UserStatusName>().notNull(),
    profileMnemocode: text("profile_mnemocode").notNull(),
    /** Normalised: trimmed, NFKC, lower case. */
    loginName: text("login_name"),
    /** E.164. */
    phone: text("phone"),
    /** Trimmed, lower case. */
    email: text("email"),
    /** argon2id PHC string; null when the user has no password. */
    passwordHash: text("password_hash"),
    /**
     * Whether the hash is of the password's NFKC form, as every hash made since is; false for one
     * made before normalisation, replaced at the next login (docs/security.md, "Passwords").
     */
    passwordNfkc: boolean("password_nfkc").notNull().default(false),
    /**
     * The session's claim (session's ClaimCredentialChange) whose change wrote the password, so that
     * the change resumed is not written twice; null for a password set otherwise.
     */
    passwordClaimId: text("password_claim_id"),
    controlQuestion: text("control_question"),
    /** argon2id of the normalised answer (control-answers.ts). */
    controlAnswerHash: text("control_answer_hash"),
    secondFactorRequired: boolean("second_factor_required").notNull().default(false),
    passwordChangeRequired: boolean("password_change_required").notNull().default(false),
    /** The authenticator app's TOTP secret, sealed (SecretBox); null while the user has none. */
    totpSecret: text("totp_secret"),
    /** A secret being enrolled, sealed, until the user proves a code of it. */
    totpPendingSecret: text("totp_pending_secret"),
    /** The last time step whose code was accepted: only a later one is (each code works once). */
    totpLastStep: bigint("totp_last_step", { mode: "number" }).notNull().default(-1),
    /** The user's id in the system it was imported from (ImportUsers): a re-run skips the user. */
    externalId: text("external_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique("users_login_name_key").on(table.companyId, table.loginName),
    unique("users_phone_key").on(table.companyId, table.phone),
    unique("users_email_key").on(table.companyId, table.email),
    unique("users_profile_key").on(table.companyId, table.profileMnemocode),
    unique("users_external_id_key").on(table.companyId, table.externalId),
  ],
);

/** Unused backup codes; a code is deleted when used. */
export const backupCodes = pgTable(
  "backup_codes",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    companyId: uuid("company_id").notNull(),
    codeHash: text("code_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.codeHash] })],
);

export type OAuthKindName = "oidc" | "oauth2";

/** A company's OAuth provider slots (1 to 5). */
export const oauthProviders = pgTable(
  "oauth_providers",
  {
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id),
    slot: integer("slot").notNull(),
    kind: text("kind").$type<OAuthKindName>().notNull(),
    name: text("name").notNull(),
    issuer: text("issuer").notNull(),
    authorizationEndpoint: text("authorization_endpoint").notNull(),
    tokenEndpoint: text("token_endpoint").notNull(),
    userinfoEndpoint: text("userinfo_endpoint").notNull(),
    clientId: text("client_id").notNull(),
    /** AES-256-GCM under SECRETS_KEY (SecretBox of @auth/runtime). */
    clientSecretEncrypted: text("client_secret_encrypted").notNull(),
    redirectUris: jsonb("redirect_uris").$type<string[]>().notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    subjectClaim: text("subject_claim").notNull(),
    /**
     * OpenID Connect only: a login whose ID token proves multi-factor (`amr` "mfa", or an `acr` of
     * mfaAcrValues) needs no second factor of the product's (docs/decisions.md, "OAuth").
     */
    trustsProviderMfa: boolean("trusts_provider_mfa").notNull().default(false),
    mfaAcrValues: jsonb("mfa_acr_values").$type<string[]>().notNull().default([]),
    /** OpenID Connect only: the oldest login at the provider accepted (`auth_time`), in seconds; 0: any. */
    maxAgeSeconds: integer("max_age_seconds").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.slot] })],
);

/** Which user a provider's subject logs in as. */
export const oauthLinks = pgTable(
  "oauth_links",
  {
    companyId: uuid("company_id").notNull(),
    slot: integer("slot").notNull(),
    subject: text("subject").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.companyId, table.slot, table.subject] }),
    index("oauth_links_user_idx").on(table.userId),
  ],
);

/** When each recovery message of the last hour went to a user, for the per-user cap (one row a user). */
export const recoveryMessages = pgTable(
  "recovery_messages",
  {
    companyId: uuid("company_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    sentAt: timestamp("sent_at", { withTimezone: true }).array().notNull(),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.userId] })],
);

/**
 * When each notice of one kind went to a user within the kind's window, for the per-user cap of
 * notices (docs/security.md, "Notifications"): one row a user and kind.
 */
export const noticesSent = pgTable(
  "notices_sent",
  {
    companyId: uuid("company_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    /** The event's name, as the notices and their metric name it: recovery_started, locked_out, ... */
    event: text("event").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).array().notNull(),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.userId, table.event] })],
);

export type ContactKindName = "phone" | "email";

/**
 * A user's new phone or e-mail, pending until the code or the link sent to it comes back
 * (docs/decisions.md, "Changing an address"): one a user and kind, the later replacing the earlier.
 */
export const contactChanges = pgTable(
  "contact_changes",
  {
    companyId: uuid("company_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind").$type<ContactKindName>().notNull(),
    /** Normalised as a login ID of its kind: E.164, or a trimmed lower-case e-mail. */
    address: text("address").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.userId, table.kind] })],
);

/** Bytes as PostgreSQL's bytea; both drivers (node-postgres, PGlite) read it as a Uint8Array or a Buffer. */
const bytea = customType<{ data: Uint8Array<ArrayBuffer>; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => Buffer.from(value),
  fromDriver: (value) => new Uint8Array(value),
});

/**
 * The users' passkeys (WebAuthn credentials, docs/decisions.md "Passkeys"): a credential id is
 * unique in its company (the relying party is the company's), and found by it in a login without a
 * login ID.
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    companyId: uuid("company_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    /** The credential's id, base64url, as the authenticator gave it. */
    credentialId: text("credential_id").notNull(),
    /** The credential's public key, COSE-encoded: not secret, but never answered. */
    publicKey: bytea("public_key").notNull(),
    /** The authenticator's last sign counter: a later assertion must bring a greater one, unless both are 0. */
    signCount: bigint("sign_count", { mode: "number" }).notNull().default(0),
    transports: text("transports").array().notNull().default([]),
    /** Backed up (a synced passkey) as the last ceremony said. */
    backedUp: boolean("backed_up").notNull().default(false),
    /** The authenticator has verified the user at least once. */
    userVerified: boolean("user_verified").notNull().default(false),
    name: text("name").notNull().default("Passkey"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    /** Its counter did not grow once: refused from then on, until an operator removes it. */
    cloneSuspected: boolean("clone_suspected").notNull().default(false),
  },
  (table) => [
    unique("passkeys_credential_key").on(table.companyId, table.credentialId),
    index("passkeys_user_idx").on(table.userId),
  ],
);

export const schema = {
  companies,
  apiKeys,
  users,
  backupCodes,
  oauthProviders,
  oauthLinks,
  recoveryMessages,
  noticesSent,
  passkeys,
  contactChanges,
  eventOutbox,
};
export type OAuthProviderRow = typeof oauthProviders.$inferSelect;
export type IdentitySchema = typeof schema;
export type CompanyRow = typeof companies.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type PasskeyRow = typeof passkeys.$inferSelect;
export type ContactChangeRow = typeof contactChanges.$inferSelect;
