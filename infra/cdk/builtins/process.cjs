// Bundles import node:process through this file: see infra/cdk/bundling.ts, NODE_BUILTIN_ALIASES.
module.exports = process.getBuiltinModule('node:process');
