/** A one-line progress bar on stderr, drawn only when stderr is a terminal (never into logs or pipes). */
export class Progress {
  private readonly enabled: boolean;
  private done_ = 0;
  private lastDraw = 0;
  private closed = false;

  constructor(
    private readonly label: string,
    private readonly total: number,
    requested?: boolean,
  ) {
    this.enabled = Boolean(process.stderr.isTTY) && requested !== false;
  }

  advance(bytes: number): void {
    if (!this.enabled || this.closed) return;
    this.done_ += bytes;
    const now = Date.now();
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    this.draw();
  }

  done(): void {
    if (!this.enabled || this.closed) return;
    this.closed = true;
    if (this.lastDraw > 0) process.stderr.write("\r\x1b[2K");
  }

  private draw(): void {
    const share = this.total > 0 ? Math.min(1, this.done_ / this.total) : 0;
    const width = 30;
    const filled = Math.round(share * width);
    const label = this.label.length > 60 ? `…${this.label.slice(-59)}` : this.label;
    process.stderr.write(`\r\x1b[2K[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ${label}`);
  }
}
