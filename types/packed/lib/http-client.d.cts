// lib/http-client.cjs of the packed package: the CommonJS copy of package/lib/http-client.js that
// scripts/package.mjs compiles with esbuild at pack time, for package/lib/node.cjs to require.
// It exists only in the package, so tsc finds this stand-in instead (tsconfig.json lists
// types/packed among its rootDirs, beside package/): the ES source's own exports, so node.cjs is
// checked against the code it will really get.
export {
  installHttpClient,
  ResponseHeaders,
  InProcessHttpClient,
} from '../../../package/lib/http-client.js';
