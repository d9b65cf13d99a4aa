// Questions to the user — trust, inputs, sampling consent, elicitation forms — are shown one at a time: a second
// quick input would otherwise replace the first, which then reads as the user cancelling it.
export class InteractionQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
