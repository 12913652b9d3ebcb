# Sourced by .ci/run, or by hand (`source scripts/use-node.sh`): the app needs Node.js 24 LTS (any
# Node.js from 22.22 runs it), and when the machine's node is older this puts Node.js 24 LTS first on PATH.
# It comes from the npm registry's `node` package, which carries the binary and the C headers; a native
# module that compiles uses those headers, without downloading any.
# What is older is for check-node.cjs to say, from package.json's engines, as before npm start, build and
# test: the floor is written once. Found beside this file (bash's BASH_SOURCE, zsh's $0), so any folder
# will do; where neither names it, the check fails and Node.js 24 is put first anyway, which is harmless.
node_check="$(dirname "${BASH_SOURCE:-$0}")/check-node.cjs"
node_is_recent() {
  command -v node >/dev/null 2>&1 && node "$node_check" 2>/dev/null
}

if ! node_is_recent; then
  node_prefix="${NODE24_PREFIX:-$HOME/.node24}"
  if [ ! -x "$node_prefix/node_modules/.bin/node" ]; then
    echo "Installing Node.js 24 from the npm registry into $node_prefix..."
    npm install --prefix "$node_prefix" --no-audit --no-fund --loglevel=error node@24
  fi
  export PATH="$node_prefix/node_modules/.bin:$PATH"
  case "$(uname -m)" in aarch64 | arm64) node_arch=arm64 ;; *) node_arch=x64 ;; esac
  # node-gyp's `nodedir`, set the way node-gyp asks for since npm 11: npm warns about `npm_config_nodedir`
  # (not an npm setting), and passes npm_package_config_node_gyp_* through to the node-gyp it runs.
  export npm_package_config_node_gyp_nodedir="$node_prefix/node_modules/node/node_modules/node-linux-$node_arch"
fi
echo "Node.js $(node --version), npm $(npm --version)"
