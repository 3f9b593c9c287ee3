"""Where ``simulate`` and ``arena`` run their chunks of work: this process, local processes, or Ray.

``run_tasks(function, tasks, jobs, backend, address)`` calls ``function(*task)`` for every task
and yields the results in the order of the tasks, each as soon as it and those before it are
done (nothing is kept once yielded), so that a seeded run gives the same numbers on every
backend and a long run keeps little in memory. ``function`` must be a module-level function (it is sent to other processes).
With ``--backend ray`` (optional extra ``rulelang[ray]``) the tasks go to the Ray cluster at
``--address``, or to a local Ray started for the run when none is given; a rule file must be
readable at the same path on every worker (a shipped game always is).
"""

from __future__ import annotations

BACKENDS = ("local", "ray")


def run_tasks(function, tasks: list[tuple], jobs: int = 1, backend: str = "local", address: str | None = None):
    """``function(*task)`` for every task, in order, spread over ``jobs`` processes or Ray (a generator)."""
    if backend == "ray":
        yield from _on_ray(function, tasks, jobs, address)
    elif jobs <= 1:
        for task in tasks:
            yield function(*task)
    else:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(function, *task) for task in tasks]
            for index, future in enumerate(futures):
                yield future.result()
                futures[index] = None


def _on_ray(function, tasks: list[tuple], jobs: int, address: str | None):
    from rulelang.cli.args import UsageError
    try:
        import ray
    except ImportError:
        raise UsageError("--backend ray needs Ray: pip install 'rulelang[ray]'") from None
    started = not ray.is_initialized()
    if started:
        import logging
        options = {"address": address} if address else {"num_cpus": max(jobs, 1)}
        try:
            ray.init(include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR, **options)
        except (ConnectionError, ValueError, RuntimeError) as error:
            raise UsageError(f"cannot reach Ray at {address or 'a local instance'}: {error}") from None
    try:
        remote = ray.remote(function)
        pending = [remote.remote(*task) for task in tasks]
        for index, reference in enumerate(pending):
            yield ray.get(reference)
            pending[index] = None
    finally:
        if started:
            ray.shutdown()
