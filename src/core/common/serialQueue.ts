// One task at a time, in order: the lifecycle operations of a server, the questions to the user, config reloads.

/** Runs tasks one after another, in the order they were queued; a failed task does not stop the ones after it. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
