// Packages without their own type declarations, used by the benchmark only.
declare module 'autocannon';
declare module 'oidc-provider';
