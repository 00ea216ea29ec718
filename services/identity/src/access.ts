import { type AccessTable, assertAdmin, type CallContext } from "@auth/grpc-kit";
import type { IdentityServiceService } from "@auth/proto/identity";

/**
 * Who may call what of the identity service, by the SPIFFE ID of the caller's certificate
 * (docs/security.md, "Trust between the services"). Operators also present the admin token.
 */
export const identityAccess: AccessTable<typeof IdentityServiceService> = {
  createCompany: ["operator"],
  getCompany: ["operator"],
  listCompanies: ["operator"],
  updateCompany: ["operator"],
  createApiKey: ["operator"],
  listApiKeys: ["operator"],
  revokeApiKey: ["operator"],
  rotateApiKey: ["operator"],
  createUser: ["operator"],
  importUsers: ["operator"],
  updateUser: ["operator"],
  listUsers: ["operator"],
  // The signed-in user's new set too (auth/backupcodes/generate).
  generateBackupCodes: ["gateway", "operator"],
  countBackupCodes: ["operator"],
  setOAuthProvider: ["operator"],
  listOAuthProviders: ["operator"],
  deleteOAuthProvider: ["operator"],
  linkOAuthIdentity: ["operator"],
  unlinkOAuthIdentity: ["operator"],
  getUser: ["gateway", "operator"],
  authenticateApiKey: ["gateway"],
  findUser: ["gateway", "operator"],
  verifyPassword: ["gateway"],
  verifyCredentials: ["gateway"],
  setPassword: ["gateway"],
  verifyControlAnswer: ["gateway"],
  useBackupCode: ["gateway"],
  exchangeOAuthCode: ["gateway"],
  verifyCaptcha: ["gateway"],
  getSmsDelivery: ["otp"],
  getMailDelivery: ["recovery"],
  notifyUser: ["gateway"],
  beginTotpEnrolment: ["gateway"],
  confirmTotpEnrolment: ["gateway"],
  verifyTotp: ["gateway"],
  removeTotp: ["operator"],
  beginPasskeyLogin: ["gateway"],
  verifyPasskey: ["gateway"],
  beginPasskeyRegistration: ["gateway"],
  finishPasskeyRegistration: ["gateway"],
  listPasskeys: ["gateway", "operator"],
  renamePasskey: ["gateway", "operator"],
  removePasskey: ["gateway", "operator"],
  beginContactChange: ["gateway"],
  // The owners of the code and the link that went to the new address apply it, never the gateway.
  applyContactChange: ["otp", "recovery"],
};

/**
 * Whether an operator made the call, for a method both the gateway and operators call: by the
 * caller's certificate, or over plain text (the development flag), where no certificate names the
 * caller, by the admin token only operators present.
 */
export function isOperatorCall(context: CallContext, adminTokenSha256: string): boolean {
  if (!context.plaintext) return context.caller === "operator";
  try {
    assertAdmin(context.metadata, adminTokenSha256);
    return true;
  } catch {
    return false;
  }
}
