# Shared by every rule file: paths, the choice between fresh and archived measurements (made once, at
# start-up), and the single `gpu` resource unit.
import shlex
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.logging import logger

REPO = Path(workflow.basedir)
sys.path.insert(0, str(REPO))

from emogi import workflow as setup  # noqa: E402

setup.prepare_environment(REPO, invocation=shlex.join(["snakemake", *sys.argv[1:]]))
GRAPHS = list(config["graphs"])
WIDTHS = config["edge_bytes"]
DEVICE = config["gpu"]["device"]
# Every GPU job that places an edge list passes this on (empty unless the config allows oversubscription).
OVERSUBSCRIBE = "--allow-managed-oversubscription" if config["measure"]["allow_managed_oversubscription"] else ""
comma = setup.comma

# GPU jobs declare `resources: gpu=1`; one unit in all means they never overlap. The workflow profile sets it
# too, but a run without the profile must be just as safe.
if "gpu" not in workflow.global_resources:
    workflow.register_resource("gpu", 1)

try:
    SOURCE, _why = setup.measurement_source(config["measurements"], setup.is_dry_run())
except setup.SourceError as err:
    raise WorkflowError(str(err))
logger.info(f"measurements: {SOURCE} ({_why})")
_apps_problems = setup.check_apps(config)
if _apps_problems and SOURCE == "fresh":  # archived tables are drawn as they are; fresh ones must fit the figures
    raise WorkflowError("config: " + "; ".join(_apps_problems) + " (or set apps.enabled: false)")

from emogi.schema import TABLES as _SCHEMA_TABLES  # noqa: E402

TABLE_NAMES = list(_SCHEMA_TABLES)
TABLES = expand("results/tables/{table}.csv", table=TABLE_NAMES) + ["results/tables/source.json"]



wildcard_constraints:
    graph="[A-Za-z0-9_-]+",
    width="4|8",
