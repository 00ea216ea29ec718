import type { AccessTable } from "@auth/grpc-kit";
import type { RecoveryServiceService } from "@auth/proto/recovery";

/** Only the gateway's flows recover access and confirm a new e-mail (docs/security.md, "Trust between the services"). */
export const recoveryAccess: AccessTable<typeof RecoveryServiceService> = {
  sendRecoveryLink: ["gateway"],
  redeemRecoveryLink: ["gateway"],
  revokeRecoveryLinks: ["gateway"],
};
