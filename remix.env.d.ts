/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// Single fetch's loader and action types (Remix v3 future flag).
declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

export {}
