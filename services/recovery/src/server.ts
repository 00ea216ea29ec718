import { implement } from "@auth/grpc-kit";
import { RecoveryServiceService } from "@auth/proto/recovery";
import type { Logger } from "@auth/runtime";

export function recoveryService(logger: Logger) {
  return {
    name: "auth.recovery.v1.RecoveryService",
    definition: RecoveryServiceService,
    implementation: implement(RecoveryServiceService, {}, { logger }),
  };
}
