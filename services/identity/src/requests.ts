import { messageSchema } from "@auth/grpc-kit";
import type {
  ApplyContactChangeRequest,
  AuthenticateApiKeyRequest,
  BeginContactChangeRequest,
  BeginPasskeyLoginRequest,
  BeginPasskeyRegistrationRequest,
  BeginTotpEnrolmentRequest,
  ConfirmTotpEnrolmentRequest,
  CountBackupCodesRequest,
  CreateApiKeyRequest,
  CreateCompanyRequest,
  CreateUserRequest,
  DeleteOAuthProviderRequest,
  ExchangeOAuthCodeRequest,
  FindUserRequest,
  FinishPasskeyRegistrationRequest,
  GenerateBackupCodesRequest,
  GetCompanyRequest,
  GetMailDeliveryRequest,
  GetSmsDeliveryRequest,
  GetUserRequest,
  ImportedUser,
  ImportUsersRequest,
  LinkOAuthIdentityRequest,
  ListApiKeysRequest,
  ListCompaniesRequest,
  ListOAuthProvidersRequest,
  ListPasskeysRequest,
  ListUsersRequest,
  NotifyUserRequest,
  RemovePasskeyRequest,
  RemoveTotpRequest,
  RenamePasskeyRequest,
  RevokeApiKeyRequest,
  RotateApiKeyRequest,
  SetOAuthProviderRequest,
  SetPasswordRequest,
  UnlinkOAuthIdentityRequest,
  UpdateCompanyRequest,
  UpdateUserRequest,
  UseBackupCodeRequest,
  VerifyCaptchaRequest,
  VerifyControlAnswerRequest,
  VerifyCredentialsRequest,
  VerifyPasskeyRequest,
  VerifyPasswordRequest,
  VerifyTotpRequest,
} from "@auth/proto/identity";
import { ContactKind, NotificationEvent, UserStatus } from "@auth/proto/identity";
import { OtpPurpose } from "@auth/proto/otp";
import { LinkPurpose } from "@auth/proto/recovery";
import { passwordLength } from "@auth/runtime";
import { z } from "zod";
import { companyCode, policyInput } from "./companies.js";
import { parsePasswordHash } from "./imported-hashes/index.js";
import { providerSettings } from "./oauth/providers.js";
import { text, withoutControlCharacters } from "./text-fields.js";
import { controlAnswerRules } from "./users.js";

/**
 * One schema per request message of the identity service, each held to its generated type
 * (messageSchema): handlers read the parsed request only.
 */

const id = z.uuid("must be a UUID");
const password = withoutControlCharacters(
  z
    .string()
    .min(passwordLength.min, `must have at least ${passwordLength.min} characters`)
    .max(passwordLength.max, `must have at most ${passwordLength.max} characters`),
);
const status = z.enum(UserStatus).refine((s) => s !== UserStatus.UNRECOGNIZED, "must be a user status");
const pageSize = z.number().int().min(0).max(500);
const slot = z.number().int().min(1, "must be 1 to 5").max(5, "must be 1 to 5");

export const createCompanyRequest = messageSchema<CreateCompanyRequest>()(
  z.object({
    code: companyCode,
    name: text(200).min(1),
    policy: policyInput.default(policyInput.parse({})),
  }),
);
export const getCompanyRequest = messageSchema<GetCompanyRequest>()(z.object({ code: text(100) }));
export const updateCompanyRequest = messageSchema<UpdateCompanyRequest>()(
  z.object({
    companyId: id,
    name: text(200).min(1).optional(),
    suspended: z.boolean().optional(),
    policy: policyInput.optional(),
  }),
);
export const createApiKeyRequest = messageSchema<CreateApiKeyRequest>()(
  z.object({
    companyId: id,
    apiKey: text(256).min(24, "must have at least 24 characters").optional(),
    label: text(200),
  }),
);
export const listApiKeysRequest = messageSchema<ListApiKeysRequest>()(z.object({ companyId: id }));
export const revokeApiKeyRequest = messageSchema<RevokeApiKeyRequest>()(
  z.object({ companyId: id, keyId: id }),
);
export const rotateApiKeyRequest = messageSchema<RotateApiKeyRequest>()(
  z.object({
    companyId: id,
    keyId: id,
    overlapSeconds: z
      .number()
      .int()
      .min(0)
      .max(30 * 24 * 3600),
  }),
);
export const listCompaniesRequest = messageSchema<ListCompaniesRequest>()(
  z.object({ pageSize: pageSize, pageToken: text(200) }),
);
export const authenticateApiKeyRequest = messageSchema<AuthenticateApiKeyRequest>()(
  z.object({ companyCode: text(100), apiKey: text(256) }),
);
/** What every new user has, whether CreateUser or ImportUsers makes it. */
const newUserFields = {
  role: text(100).min(1, "is required"),
  profileMnemocode: text(200).min(1, "is required"),
  loginName: text(200).trim().min(1).optional(),
  phone: text(50).optional(),
  email: z.email("must be an e-mail address").max(320).optional(),
  password: password.optional(),
  status,
  secondFactorRequired: z.boolean(),
  passwordChangeRequired: z.boolean(),
};
export const createUserRequest = messageSchema<CreateUserRequest>()(
  z
    .object({
      companyId: id,
      ...newUserFields,
      controlQuestion: text(500).trim().min(1).optional(),
      controlAnswer: text(500)
        .refine(controlAnswerRules.answer.check, controlAnswerRules.answer.message)
        .optional(),
    })
    .refine(controlAnswerRules.ofNewUser.check, {
      message: controlAnswerRules.ofNewUser.message,
      path: ["controlAnswer"],
    }),
);
/** The batch of ImportUsers; each user is checked on its own (importedUser), so that one bad user fails alone. */
export const importUsersRequest = messageSchema<ImportUsersRequest>()(
  z.object({
    companyId: id,
    users: z
      .array(z.custom<ImportedUser>())
      .min(1, "must not be empty")
      .max(500, "must have at most 500 users"),
  }),
);
/** A user of an import: CreateUser's fields (no control question), its external id, and its password or the hash of it. */
export const importedUser = messageSchema<ImportedUser>()(
  z
    .object({
      externalId: text(200).min(1, "is required"),
      ...newUserFields,
      passwordHash: text(1_024)
        .superRefine((passwordHash, context) => {
          const parsed = parsePasswordHash(passwordHash);
          if (!parsed.ok) context.addIssue({ code: "custom", message: parsed.reason });
        })
        .optional(),
    })
    .refine((user) => user.password === undefined || user.passwordHash === undefined, {
      message: "give a password or its hash, not both",
      path: ["passwordHash"],
    }),
);
export const getUserRequest = messageSchema<GetUserRequest>()(z.object({ companyId: id, userId: id }));
export const updateUserRequest = messageSchema<UpdateUserRequest>()(
  z
    .object({
      companyId: id,
      userId: id,
      loginName: text(200).trim().optional(),
      phone: text(50).optional(),
      email: z.union([z.literal(""), z.email("must be an e-mail address").max(320)]).optional(),
      role: text(100).min(1).optional(),
      status: status.optional(),
      profileMnemocode: text(200).min(1).optional(),
      secondFactorRequired: z.boolean().optional(),
      passwordChangeRequired: z.boolean().optional(),
      password: z.union([z.literal(""), password]).optional(),
      controlQuestion: text(500).trim().optional(),
      controlAnswer: text(500).optional(),
    })
    .refine(controlAnswerRules.ofChange.check, {
      message: controlAnswerRules.ofChange.message,
      path: ["controlAnswer"],
    }),
);
export const listUsersRequest = messageSchema<ListUsersRequest>()(
  z.object({
    companyId: id,
    pageSize,
    pageToken: z.union([z.literal(""), z.uuid("must be a page token")]),
  }),
);
export const findUserRequest = messageSchema<FindUserRequest>()(
  z.object({ companyId: id, loginId: text(512) }),
);
/** What a password check carries for the budget it spends: the captcha, and where the guess came from. */
const guessFields = { captchaResponse: text(8_192).optional(), clientAddress: text(100) };
/** The session a secret is checked in, which checks one at a time (ReserveSecretCheck). */
const sessionToken = text(512).optional();
export const verifyPasswordRequest = messageSchema<VerifyPasswordRequest>()(
  z.object({ companyId: id, userId: id, password: text(1_024), ...guessFields, sessionToken }),
);
export const verifyCredentialsRequest = messageSchema<VerifyCredentialsRequest>()(
  z.object({
    companyId: id,
    loginId: text(512),
    password: text(1_024),
    ...guessFields,
  }),
);
export const setPasswordRequest = messageSchema<SetPasswordRequest>()(
  z.object({
    companyId: id,
    userId: id,
    newPassword: text(4_096),
    validateOnly: z.boolean(),
    sessionToken: text(512).optional(),
  }),
);
export const generateBackupCodesRequest = messageSchema<GenerateBackupCodesRequest>()(
  z.object({ companyId: id, userId: id }),
);
export const countBackupCodesRequest = messageSchema<CountBackupCodesRequest>()(
  z.object({ companyId: id, userId: id }),
);
export const useBackupCodeRequest = messageSchema<UseBackupCodeRequest>()(
  z.object({ companyId: id, userId: id, backupCode: text(100) }),
);
export const beginTotpEnrolmentRequest = messageSchema<BeginTotpEnrolmentRequest>()(
  z.object({ companyId: id, userId: id }),
);
export const removeTotpRequest = messageSchema<RemoveTotpRequest>()(z.object({ companyId: id, userId: id }));
export const confirmTotpEnrolmentRequest = messageSchema<ConfirmTotpEnrolmentRequest>()(
  z.object({
    companyId: id,
    userId: id,
    code: text(100),
    currentCode: text(100).optional(),
    clientAddress: text(100),
    sessionToken,
  }),
);
export const verifyTotpRequest = messageSchema<VerifyTotpRequest>()(
  z.object({ companyId: id, userId: id, code: text(100), clientAddress: text(100), sessionToken }),
);
/** A passkey's name, as the user gives it: one line of 1 to 64 characters. */
const passkeyName = text(64).min(1, "must not be empty");
/** The browser's JSON of a ceremony's answer; what it holds is checked as it is parsed (passkeys/ceremonies.ts). */
const ceremonyJson = (maxBytes: number) =>
  z
    .string()
    .refine((json) => Buffer.byteLength(json, "utf8") <= maxBytes, `must be at most ${maxBytes} bytes`);
export const beginPasskeyLoginRequest = messageSchema<BeginPasskeyLoginRequest>()(
  z.object({ companyId: id, sessionToken: text(512) }),
);
export const verifyPasskeyRequest = messageSchema<VerifyPasskeyRequest>()(
  z.object({
    companyId: id,
    sessionToken: text(512),
    responseJson: ceremonyJson(16 * 1024),
    clientAddress: text(100),
  }),
);
export const beginPasskeyRegistrationRequest = messageSchema<BeginPasskeyRegistrationRequest>()(
  z.object({ companyId: id, sessionToken: text(512) }),
);
export const finishPasskeyRegistrationRequest = messageSchema<FinishPasskeyRegistrationRequest>()(
  z.object({
    companyId: id,
    sessionToken: text(512),
    responseJson: ceremonyJson(64 * 1024),
    name: passkeyName.optional(),
  }),
);
export const listPasskeysRequest = messageSchema<ListPasskeysRequest>()(
  z.object({ companyId: id, userId: id }),
);
export const renamePasskeyRequest = messageSchema<RenamePasskeyRequest>()(
  z.object({ companyId: id, userId: id, passkeyId: id, name: passkeyName }),
);
export const removePasskeyRequest = messageSchema<RemovePasskeyRequest>()(
  z.object({ companyId: id, userId: id, passkeyId: id }),
);
export const verifyControlAnswerRequest = messageSchema<VerifyControlAnswerRequest>()(
  z.object({ companyId: id, userId: id, answer: text(1_024) }),
);
export const setOAuthProviderRequest = messageSchema<SetOAuthProviderRequest>()(
  z.object({ companyId: id, settings: providerSettings }),
);
export const listOAuthProvidersRequest = messageSchema<ListOAuthProvidersRequest>()(
  z.object({ companyId: id }),
);
export const deleteOAuthProviderRequest = messageSchema<DeleteOAuthProviderRequest>()(
  z.object({ companyId: id, slot }),
);
export const linkOAuthIdentityRequest = messageSchema<LinkOAuthIdentityRequest>()(
  z.object({
    companyId: id,
    userId: id,
    slot,
    subject: text(500).min(1, "is required"),
  }),
);
export const unlinkOAuthIdentityRequest = messageSchema<UnlinkOAuthIdentityRequest>()(
  z.object({ companyId: id, slot, subject: text(500) }),
);
export const verifyCaptchaRequest = messageSchema<VerifyCaptchaRequest>()(
  z.object({
    companyId: id,
    ...guessFields,
    captchaResponse: text(8_192),
  }),
);
/** A code's delivery: what it is for decides whether it spends a recovery message. */
export const smsDeliveryRequest = messageSchema<GetSmsDeliveryRequest>()(
  z.object({
    companyId: id,
    userId: id,
    purpose: z.enum(
      [OtpPurpose.LOGIN, OtpPurpose.RECOVERY, OtpPurpose.PHONE_CHANGE],
      "must be LOGIN, RECOVERY or PHONE_CHANGE",
    ),
  }),
);
/** A link's delivery: a recovery's, or an e-mail change's. */
export const mailDeliveryRequest = messageSchema<GetMailDeliveryRequest>()(
  z.object({
    companyId: id,
    userId: id,
    purpose: z
      .enum(
        [LinkPurpose.UNSPECIFIED, LinkPurpose.RECOVERY, LinkPurpose.EMAIL_CHANGE],
        "must be RECOVERY or EMAIL_CHANGE",
      )
      .optional(),
  }),
);
const contactKind = z.enum([ContactKind.PHONE, ContactKind.EMAIL], "must be PHONE or EMAIL");
export const beginContactChangeRequest = messageSchema<BeginContactChangeRequest>()(
  z.object({ companyId: id, sessionToken: text(512), kind: contactKind, address: text(320) }),
);
export const applyContactChangeRequest = messageSchema<ApplyContactChangeRequest>()(
  z.object({ companyId: id, userId: id, kind: contactKind, address: text(320) }),
);
/** The events the session service sees; identity reports the others itself. */
export const notifyUserRequest = messageSchema<NotifyUserRequest>()(
  z.object({
    companyId: id,
    userId: id,
    event: z.enum(
      [
        NotificationEvent.RECOVERY_STARTED,
        NotificationEvent.RECOVERY_COMPLETED,
        NotificationEvent.LOCKED_OUT,
        NotificationEvent.NEW_DEVICE,
      ],
      "must be RECOVERY_STARTED, RECOVERY_COMPLETED, LOCKED_OUT or NEW_DEVICE",
    ),
    // As the session store keeps it (shownUserAgent): at most 256 characters.
    userAgent: z.string().max(1_024).optional(),
  }),
);
export const exchangeOAuthCodeRequest = messageSchema<ExchangeOAuthCodeRequest>()(
  z.object({
    companyId: id,
    slot,
    code: text(4_096).min(1, "is required"),
    redirectUri: text(2_000),
    codeVerifier: text(200).optional(),
    nonce: text(500).optional(),
  }),
);

export type CreateUserInput = z.infer<typeof createUserRequest>;
export type UpdateUserInput = z.infer<typeof updateUserRequest>;
export type ImportedUserInput = z.infer<typeof importedUser>;
