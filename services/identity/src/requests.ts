import { requestSchema } from "@auth/grpc-kit";
import type {
  AuthenticateApiKeyRequest,
  CountBackupCodesRequest,
  CreateApiKeyRequest,
  CreateCompanyRequest,
  CreateUserRequest,
  DeleteOAuthProviderRequest,
  ExchangeOAuthCodeRequest,
  FindUserRequest,
  GenerateBackupCodesRequest,
  GetCheckPolicyRequest,
  GetCompanyRequest,
  GetMailDeliveryRequest,
  GetSmsDeliveryRequest,
  GetUserRequest,
  LinkOAuthIdentityRequest,
  ListApiKeysRequest,
  ListCompaniesRequest,
  ListOAuthProvidersRequest,
  ListUsersRequest,
  RevokeApiKeyRequest,
  RotateApiKeyRequest,
  SetOAuthProviderRequest,
  SetPasswordRequest,
  SpendRecoveryMessageRequest,
  UnlinkOAuthIdentityRequest,
  UpdateCompanyRequest,
  UpdateUserRequest,
  UseBackupCodeRequest,
  VerifyCaptchaRequest,
  VerifyControlAnswerRequest,
  VerifyCredentialsRequest,
  VerifyPasswordRequest,
} from "@auth/proto/identity";
import { UserStatus } from "@auth/proto/identity";
import { passwordLength } from "@auth/runtime";
import { z } from "zod";
import { companyCode, policyInput } from "./companies.js";
import { providerSettings } from "./oauth/providers.js";
import { text, withoutControlCharacters } from "./text-fields.js";
import { controlAnswerRules } from "./users.js";

/**
 * One schema per request message of the identity service, each held to its generated type
 * (requestSchema): handlers read the parsed request only.
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

export const createCompanyRequest = requestSchema<CreateCompanyRequest>()(
  z.object({
    code: companyCode,
    name: text(200).min(1),
    policy: policyInput.default(policyInput.parse({})),
  }),
);
export const getCompanyRequest = requestSchema<GetCompanyRequest>()(z.object({ code: text(100) }));
export const updateCompanyRequest = requestSchema<UpdateCompanyRequest>()(
  z.object({
    companyId: id,
    name: text(200).min(1).optional(),
    suspended: z.boolean().optional(),
    policy: policyInput.optional(),
  }),
);
export const createApiKeyRequest = requestSchema<CreateApiKeyRequest>()(
  z.object({
    companyId: id,
    apiKey: text(256).min(24, "must have at least 24 characters").optional(),
    label: text(200),
  }),
);
export const listApiKeysRequest = requestSchema<ListApiKeysRequest>()(z.object({ companyId: id }));
export const revokeApiKeyRequest = requestSchema<RevokeApiKeyRequest>()(
  z.object({ companyId: id, keyId: id }),
);
export const rotateApiKeyRequest = requestSchema<RotateApiKeyRequest>()(
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
export const listCompaniesRequest = requestSchema<ListCompaniesRequest>()(
  z.object({ pageSize: pageSize, pageToken: text(200) }),
);
export const authenticateApiKeyRequest = requestSchema<AuthenticateApiKeyRequest>()(
  z.object({ companyCode: text(100), apiKey: text(256) }),
);
export const createUserRequest = requestSchema<CreateUserRequest>()(
  z
    .object({
      companyId: id,
      role: text(100).min(1, "is required"),
      profileMnemocode: text(200).min(1, "is required"),
      loginName: text(200).trim().min(1).optional(),
      phone: text(50).optional(),
      email: z.email("must be an e-mail address").max(320).optional(),
      password: password.optional(),
      status,
      secondFactorRequired: z.boolean(),
      passwordChangeRequired: z.boolean(),
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
export const getUserRequest = requestSchema<GetUserRequest>()(z.object({ companyId: id, userId: id }));
export const updateUserRequest = requestSchema<UpdateUserRequest>()(
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
export const listUsersRequest = requestSchema<ListUsersRequest>()(
  z.object({
    companyId: id,
    pageSize,
    pageToken: z.union([z.literal(""), z.uuid("must be a page token")]),
  }),
);
export const findUserRequest = requestSchema<FindUserRequest>()(
  z.object({ companyId: id, loginId: text(512) }),
);
export const verifyPasswordRequest = requestSchema<VerifyPasswordRequest>()(
  z.object({ companyId: id, userId: id, password: text(1_024) }),
);
export const verifyCredentialsRequest = requestSchema<VerifyCredentialsRequest>()(
  z.object({
    companyId: id,
    loginId: text(512),
    password: text(1_024),
  }),
);
export const setPasswordRequest = requestSchema<SetPasswordRequest>()(
  z.object({
    companyId: id,
    userId: id,
    newPassword: text(4_096),
    validateOnly: z.boolean(),
  }),
);
export const generateBackupCodesRequest = requestSchema<GenerateBackupCodesRequest>()(
  z.object({ companyId: id, userId: id }),
);
export const countBackupCodesRequest = requestSchema<CountBackupCodesRequest>()(
  z.object({ companyId: id, userId: id }),
);
export const useBackupCodeRequest = requestSchema<UseBackupCodeRequest>()(
  z.object({ companyId: id, userId: id, backupCode: text(100) }),
);
export const verifyControlAnswerRequest = requestSchema<VerifyControlAnswerRequest>()(
  z.object({ companyId: id, userId: id, answer: text(1_024) }),
);
export const setOAuthProviderRequest = requestSchema<SetOAuthProviderRequest>()(
  z.object({ companyId: id, settings: providerSettings }),
);
export const listOAuthProvidersRequest = requestSchema<ListOAuthProvidersRequest>()(
  z.object({ companyId: id }),
);
export const deleteOAuthProviderRequest = requestSchema<DeleteOAuthProviderRequest>()(
  z.object({ companyId: id, slot }),
);
export const linkOAuthIdentityRequest = requestSchema<LinkOAuthIdentityRequest>()(
  z.object({
    companyId: id,
    userId: id,
    slot,
    subject: text(500).min(1, "is required"),
  }),
);
export const unlinkOAuthIdentityRequest = requestSchema<UnlinkOAuthIdentityRequest>()(
  z.object({ companyId: id, slot, subject: text(500) }),
);
export const verifyCaptchaRequest = requestSchema<VerifyCaptchaRequest>()(
  z.object({
    companyId: id,
    captchaResponse: text(8_192),
    clientAddress: text(100),
  }),
);
/** GetSmsDelivery, GetMailDelivery and SpendRecoveryMessage name the same recipient. */
export const deliveryRequest = requestSchema<
  GetSmsDeliveryRequest & GetMailDeliveryRequest & SpendRecoveryMessageRequest
>()(z.object({ companyId: id, userId: id }));
export const checkPolicyRequest = requestSchema<GetCheckPolicyRequest>()(z.object({ companyId: id }));
export const exchangeOAuthCodeRequest = requestSchema<ExchangeOAuthCodeRequest>()(
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
