import type { AccessTable } from "@auth/grpc-kit";
import type { DisclaimerServiceService } from "@auth/proto/disclaimer";

/** Who may call what of the disclaimer service (docs/security.md, "Trust between the services"). */
export const disclaimerAccess: AccessTable<typeof DisclaimerServiceService> = {
  createDisclaimer: ["operator"],
  publishDisclaimerVersion: ["operator"],
  deactivateDisclaimer: ["operator"],
  listDisclaimers: ["operator"],
  listAcceptances: ["operator"],
  listRequiredDisclaimers: ["gateway"],
  acceptDisclaimers: ["gateway"],
  listCompaniesWithDisclaimers: ["gateway"],
};
