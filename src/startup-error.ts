/**
 * A refusal to start (or to run an admin command) whose message says everything the operator needs:
 * the CLI prints it as its one error line, with `code` as the error, and no stack trace.
 */
export class StartupError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
