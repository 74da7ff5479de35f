/** A tiny listener set: both transports fan out events and connection changes the same way. */
export class ListenerSet<T> {
  private readonly listeners = new Set<(value: T) => void>();

  add(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        // A failing listener must not stop the others from hearing the same event.
        console.error(error);
      }
    }
  }
}
