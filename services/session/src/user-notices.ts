import { AuthError } from "@auth/errors";
import type { ServiceClient } from "@auth/grpc-kit";
import type { IdentityServiceService, NotificationEvent } from "@auth/proto/identity";
import type { Logger } from "@auth/runtime";

type Identity = Pick<ServiceClient<typeof IdentityServiceService>, "notifyUser">;

/**
 * What the session service sees happen to a user and the user is told of (docs/security.md,
 * "Notifications"): identity, which owns the user's addresses, sends the notice. Not waited for:
 * the request that caused it goes on, and a failure is only logged.
 */
export class UserNotices {
  constructor(
    private readonly identity: Identity,
    private readonly logger: Logger,
  ) {}

  /** `userAgent`: a new device's session's, which the notice names the device by. */
  tell(companyId: string, userId: string, event: NotificationEvent, userAgent?: string): void {
    this.identity.notifyUser({ companyId, userId, event, userAgent }).catch((error: unknown) => {
      this.logger.warn(
        { companyId, userId, event, code: error instanceof AuthError ? error.code : undefined },
        "the user's notice was not asked for",
      );
    });
  }
}
