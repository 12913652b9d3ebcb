/** A refusal the person can act on: `message` is fit to show them. Each concern subclasses it so callers can tell them apart. */
export class RefusedError<Status extends number = number> extends Error {
  constructor(
    message: string,
    readonly status: Status,
  ) {
    super(message)
  }
}
