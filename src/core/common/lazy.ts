// Parts built on first use. A composition root (src/vscode/createHost.ts) hands these out where a part's code loads on
// demand: whoever receives one sees the part's own interface, and its first use builds it (and loads its code).

interface LazyState<T> {
  create: () => T;
  built?: T;
}

const states = new WeakMap<object, LazyState<object>>();

const built = <T extends object>(state: LazyState<T>): T => (state.built ??= state.create());

/**
 * An object with `T`'s interface that `create` builds when one of its members is first read; methods come bound to the
 * built object. Two reads build nothing: `then` (a lazy part is never a thenable, so returning one from an async
 * function does not build it) and `dispose` of a part never built (there is nothing to dispose of).
 */
export function lazyObject<T extends object>(create: () => T): T {
  const state: LazyState<T> = { create };
  const methods = new Map<PropertyKey, unknown>();
  const proxy = new Proxy({} as T, {
    get(_, key) {
      if (key === 'then' || (key === 'dispose' && !state.built)) return key === 'dispose' ? () => undefined : undefined;
      const target = built(state);
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      let method = methods.get(key);
      if (method === undefined || (method as { original?: unknown }).original !== value) {
        method = Object.assign((...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args), { original: value });
        methods.set(key, method);
      }
      return method;
    },
    set(_, key, value) {
      return Reflect.set(built(state), key, value);
    },
    has(_, key) {
      return key in built(state);
    },
  });
  states.set(proxy, state as LazyState<object>);
  return proxy;
}

/** A function that builds the real one (`create()`) at its first call, then forwards every call to it. */
export function lazyFunction<A extends unknown[], R>(create: () => (...args: A) => R): (...args: A) => R {
  let made: ((...args: A) => R) | undefined;
  return (...args) => (made ??= create())(...args);
}

/** The object behind a lazy part if it was built (undefined if not): for test hooks that must not build it. */
export function builtPart<T extends object>(part: T): T | undefined {
  const state = states.get(part);
  return state ? (state.built as T | undefined) : part;
}
