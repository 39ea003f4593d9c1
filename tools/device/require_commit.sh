# Sourced first by a registered split's device script (holdout_v6.sh on): a session part (PARTS holds `session`,
# the default) needs EMOGI_COMMIT, since the device copy's own `git rev-parse` is stale; it is exported so that the
# runs' rows and host.txt record it. Exits 2, before anything runs, where it is missing.
case " ${PARTS:-session} " in
  *" session "*) [ -n "${EMOGI_COMMIT:-}" ] || { echo "EMOGI_COMMIT=<the commit of this tree> is required"; exit 2; }
    export EMOGI_COMMIT ;;
esac
