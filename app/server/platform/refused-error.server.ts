/**
 * A request refused for a reason the person can act on: `message` says why, in words fit to show them,
 * and `status` is what an HTTP answer says. Each concern names its own kind (QuotaError, AccountError,
 * UserControlError) so callers can tell them apart.
 */
export class RefusedError<Status extends number = number> extends Error {
  constructor(
    message: string,
    readonly status: Status,
  ) {
    super(message)
  }
}
