"""Diagnose a failed vLLM start or run from its log: phase, cause, evidence and the next step.

    diagnose(journal_text, context={"max_model_len": 32768, "gpu_memory_utilization": 0.9},
             exclude_windows=[{"start": "2026-11-30T07:08:00Z", "end": "2026-11-30T07:12:00Z"}])
    -> {"phase": "startup", "cause": "...", "evidence": [...], "next_step": "1. Lower max_model_len
        from 32768 to 29184 ...", "parameter_changes": {"max_model_len": 29184},
        "rule": "kv_cache_too_small_for_max_model_len", "first_error_line": "ValueError: To serve ...",
        "cause_class": "kv_cache_insufficient", "healthy": False, "risks": [...], "client_errors": [...]}

Phases follow the triage order of a deploy: ``load`` (process start, config, weights loading),
``startup`` (weights loaded: memory profiling, KV cache, compile, CUDA graphs, port), ``runtime``
(served, then failed), ``none`` (healthy: serving, only clients' 4xx), ``unknown``.

How it reads a log:
- Each line is stripped of the wrappers around the message (journal, docker-compose and CI prefixes,
  ``(Worker pid=N)``, ``ERROR 11-30 07:08:28 [file.py:12]``, ``[rank0]:``), so rules match the
  message itself; a log as people paste it (inside a Markdown quote, a traceback that lost its line
  breaks, a notebook's or rich's rendering of the frames) is read as the log. INFO/DEBUG/WARNING
  lines only count for rules that ask for them: vLLM's hints ("If you are running out of memory,
  ...", "can cause fd limit errors like `OSError ...`") are not errors.
- A journal may hold several starts (systemd restarts); the latest start that logged a failure is
  diagnosed. Errors logged after a requested shutdown (SIGTERM, ``systemctl stop``) are teardown
  noise, not causes.
- Phase from the timeline, cause from the message. The phase of an error is that of the last
  milestone vLLM printed before it (_MILESTONES: args/config -> load, weights loaded/profiling/KV
  cache/graphs -> startup, listening/served -> runtime), or of the step its traceback frames name
  (_FRAME_STAGES), whichever is later; a bare line takes its rule's family phase. Only binding the
  port keeps a fixed phase. Frames that only make a step likely (_WEAK_FRAME_STAGES) are read last.
- Rules are regexes over the stable parts of messages, so several vLLM versions' wordings match.
  Constant ones are rows of a table (``_row``); functions remain where a value is computed. Each
  rule has a cause class (the taxonomy of tests/fixtures/vllm-failure-corpus/README.md) and a tier:
  1 a root cause, 2 a class of error, 3 a weak symptom, 4 a wrapper ("Engine core initialization
  failed. See root cause above"). The lowest tier wins, then an error line over a printed message,
  then the earliest line: that is how wrappers are looked past to the first real error above them.
- Warnings are risks (RISKS), returned with their next step; one becomes the cause only when a
  failure follows that no rule explains (a wrapper, a traceback cut before its error line).
- Healthy is an answer: a serving engine whose only errors are clients' (4xx, rejected requests) is
  ``healthy`` with phase ``none`` and the client errors counted by status and route, leaving out
  the acceptance probes' ``exclude_windows``.
- An error no rule knows still gets a phase, its first error line and a next step that gathers more
  (VLLM_LOGGING_LEVEL=DEBUG, NCCL_DEBUG=INFO, CUDA_LAUNCH_BLOCKING=1).

Next steps list reversible parameters first (context length, concurrency, memory utilisation), then
quantisation and hardware. ``parameter_changes`` only carries numbers the log itself justifies
(vLLM's "estimated maximum model length is N").
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from . import vllm_log
from .errors import KimiDeployError

try:  # the regular-expression parser, to read what each rule's pattern requires (Python 3.11 renamed it)
    from re import _parser as _regex_parser
except ImportError:  # pragma: no cover - Python < 3.11
    import sre_parse as _regex_parser

PHASES = ("load", "startup", "runtime", "unknown", "none")
MAX_EVIDENCE_LINES = 6
MAX_EVIDENCE_CHARS = 400

# ---------------------------------------------------------------------------------------------
# Line parsing
# ---------------------------------------------------------------------------------------------

# Colour codes, raw, as copied from a terminal ("^[[0;36m") or as rsyslog stores control characters, '#' and their
# octal code ("#033[1;36m", a carriage return "#015" at the line's end).
_ANSI = re.compile(r"(?:\x1b|\^\[|#033)\[[0-9;]*[A-Za-z]|#015$")
# The same codes with their escape lost in a paste ("36m(EngineCore_DP0 pid=820)0m ERROR", "1;36m(VllmWorker ..."):
# only around a process tag at the start of a line, where no text of a log begins with a digit and 'm('.
_BARE_COLOUR = re.compile(r"^\[?\d{1,2}(?:;\d{1,2})*m(?=\()|(?<=\))\[?0(?:;0)?m(?= )")
# "Nov 30 07:14:30 host kimi-vllm[123]: " (journalctl's default short format; short-precise adds microseconds,
# short-iso an ISO timestamp, short-monotonic "[  123.456789]").
_JOURNAL_PREFIX = re.compile(
    r"^(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\S*|\[ *\d+\.\d+\]) \S+ "
    r"[^\s:\[]+(?:\[\d+\])?: "
)
_COMPOSE_PREFIX = re.compile(r"^[\w.-]+(?:-\d+)?\s+\|\s?")
# A CI log viewer's gutter ("  | " before each line, Buildkite's) and a runner's bracketed tag ahead of vLLM's record
# header ("[Stage-1] ERROR 01-29 19:03:10 [async_llm.py:546] ", vllm-omni's stages).
# (and the line number a viewer or `cat -n` puts before each line, with a tab: "3597\t(APIServer pid=1) ERROR ...")
_GUTTER_PREFIX = re.compile(r"^ {2}\| |^ *\d+\t")
_RUNNER_TAG = re.compile(r"^\[[\w-]+\]\s+(?=(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+\d\d-\d\d\s)")
# CI and job runners: "[2025-03-10T15:07:20Z] ", "2024-04-09T23:20:46Z [job] ".
# (docker/podman --timestamps write a UTC "Z" or the host's offset: "2025-09-02T08:04:02.874660099-07:00 ")
_ISO_PREFIX = re.compile(r"^\[?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?\s+"
                         r"(?:\[[\w-]+\]\s+)?")
# FastChat's workers: "2023-12-12 19:38:39 | ERROR | stderr | " (everything on stderr is tagged ERROR: not a level).
_FASTCHAT_PREFIX = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \| [A-Z]+ \| [\w.-]+ \| ?")
# TorchServe's model log: "2024-10-03T17:37:44,150 [INFO ] W-9000-model_1.0-stdout MODEL_LOG - " before each line.
_TORCHSERVE_PREFIX = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d,\d+ \[[A-Z]+ ?\] \S+ MODEL_LOG - ")
_RANK_PREFIX = re.compile(r"^\[rank\d+\]:\s*")
# A Go wrapper's logfmt record around the vLLM process's output (Docker Model Runner:
# 'time="..." level=info msg="  File \"/opt/vllm-env/bin/vllm\", line 10, in <module>" component=vllm'): the message,
# unescaped, is vLLM's line.
_LOGFMT_RECORD = re.compile(r'^time="[^"]*" level=\w+ msg="((?:[^"\\]|\\.)*)"')
_LOGFMT_ESCAPE = re.compile(r"\\(.)")
# torch.compile's frame id after a glog header: "... triton_heuristics.py:539] [0/0] ".
_COMPILE_ID = re.compile(r"^\[\d+/\d+(?:_\d+)?\] ?")
# "(Worker pid=22095) ", "(VllmWorker rank=3 pid=1090) ", "(EngineCore_DP0 pid=12) "; a named Ray actor
# ("(worker-oss-llama7b, pid=41756) ") and a Ray Serve replica ("(ServeReplica:app:Deployment pid=7, ip=10.0.0.1) ").
# One space after the tag: the indentation that follows is the traceback's ("(Worker pid=1)     raise X(").
# vLLM 0.10+ names a worker by its rank in each parallel group ("(VllmWorker TP0 pid=442) ", "(VllmWorker TP1 EP1
# pid=7) "); Ray's unnamed tasks and actors print only their pid ("(pid=41424) ").
_PROC_TAG = re.compile(r"^\((?:([\w:.-]+),?(?: rank=\d+| (?:[A-Z]{2}\d+ ?)+)? )?pid=\d+(?:, ip=[\d.]+)?\) ?")
# vLLM V1: "ERROR 11-30 07:08:28 [core.py:1510] "; V0: "INFO 02-03 03:43:49 model_runner.py:629] ".
_VLLM_HEADER = re.compile(
    r"^(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\s+\d\d-\d\d\s+\d\d:\d\d:\d\d(?:\.\d+)?\s+"
    r"(?:\[[^\]]*\]|[\w./-]+:\d+\])\s?"
)
# Bare level, as in the catalog's shortened lines: "INFO [gpu_model_runner.py:6936] ...".
_BARE_HEADER = re.compile(r"^(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\s+\[[\w./-]+:\d+\]\s?")
# Ray's own logger: "2024-04-21 15:12:15,317 INFO worker.py:1715 -- Connected to Ray cluster."
_RAY_HEADER = re.compile(r"^(?:\S+ )?\d\d:\d\d:\d\d,\d+\s+(DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w./-]+:\d+ -- ")
# uvicorn: "ERROR:    [Errno 98] ...", "INFO:     127.0.0.1:5 - \"POST ...\" 400".
_UVICORN_HEADER = re.compile(r"^(DEBUG|INFO|WARNING|ERROR|CRITICAL):\s+")
# glog/c10: "W1130 07:06:09.077000 20607 torch/_library/triton.py:53] ", "[W1130 07:06:36.3 utils.cpp:68] ".
_GLOG_HEADER = re.compile(r"^\[?([IWEF])\d{4} \d\d:\d\d:\d\d\.\d+ (?:\d+ )?[\w./-]+:\d+\]\s?")
_GLOG_LEVELS = {"I": "INFO", "W": "WARNING", "E": "ERROR", "F": "CRITICAL"}
_FRAME = re.compile(r'^\s*File "[^"]*", line \d+')
_CARETS = re.compile(r"^\s*[~^]+\s*$")
_TRACEBACK = re.compile(r"^\s*Traceback \(most recent call last\):")
_EXCEPTION = re.compile(r"^\s*(?:[\w]+\.)*([A-Z]\w*(?:Error|Exception|Exit|Interrupt))\b(?::|$)")
_IGNORED_EXCEPTION = re.compile(r"^Exception ignored in: ")
# A line of Python source as a traceback prints it under its frame: a statement or a call.
_SOURCE_LIKE = re.compile(r"^\s*(?:(?:return|raise|await|yield|for|with|if|elif|assert|del)\b|[\w.\[\], ]+?\s*=[^=]"
                          r"|[\w.]+\()")


@dataclass
class Line:
    index: int
    raw: str
    message: str
    level: str | None
    tag: str
    is_frame: bool = False
    ignored: bool = False  # part of an "Exception ignored in:" traceback (an error in __del__)

    @property
    def quiet(self) -> bool:
        """INFO/DEBUG/WARNING: hints and progress, not errors."""
        return self.level in ("DEBUG", "INFO", "WARNING", "WARN")


# rich's traceback rendering (typer's CLI, some launchers): a box whose header says "Traceback (most recent call
# last)" and whose frames read "│ /path/file.py:36 in get_tokenizer   │"; read as Python's own lines
_RICH_HEADER = re.compile(r"^╭─+ Traceback \(most recent call last\) ─+╮\s*$")
_RICH_FRAME = re.compile(r"^│ (\S+\.py):(\d+) in (\S+?)\s*│?\s*$")
# Other renderings of a frame, read as Python's own line ('  File "path", line N, in func') (pytest's below):
# IPython/Jupyter's ("File /path/llm.py:157, in LLM.generate(self, prompts)", older "/path/llm.py in generate(self)"),
# and Colab's link form ("[/usr/lib/.../utils.py](https://localhost:8080/#) in inner(*args)").
_NOTEBOOK_FRAME = re.compile(r"^File (\S+?\.py):(\d+), in (?:\w+\.)*(\w+)\(")
_NOTEBOOK_OLD_FRAME = re.compile(r"^\[?(/\S+?\.py)\]?(?:\(\S*\))? in (\w+)\(")
# pytest's long traceback of a failed test ("vllm/entrypoints/llm.py:243: in __init__"); its failing test's own
# location line ("tests/test_x.py:123: ") names no function and stays as it is.
_PYTEST_FRAME = re.compile(r"^(\S+\.py):(\d+): in (\w+)\s*$")
# The source lines IPython prints around a frame ("    155   token_ids = ...", "--> 157 return self._run_engine()").
_NOTEBOOK_SOURCE = re.compile(r"^(?:-+>|\s+)\s*\d+\s")
# A log pasted inside a Markdown quote in an issue comment ("> (VllmWorkerProcess pid=1) ERROR ...").
_QUOTE_PREFIX = re.compile(r"^(?:> ?)+")
# An error line its reporter set in Markdown bold ("[rank1]: **RuntimeError: world_size (8) is not equal to ...**").
# (Not glog's "*** SIGSEGV received at ... ***", whose stars are the message's own.)
_MARKDOWN_BOLD = re.compile(r"^\*\*(?=[^\s*])(.*[^\s*])\*\*\s*$")
# xoscar (Xinference's actor framework) re-raises an actor's exception in its caller with the actor's address put
# before the message: "TypeError: [address=0.0.0.0:43633, pid=157] f() takes 1 positional argument but 2 were given".
_ACTOR_ADDRESS = re.compile(r"^((?:\w+\.)*\w+: )\[address=[^\]\s]+, pid=\d+\] ")


def _parse_line(index: int, raw: str) -> Line:
    text = _BARE_COLOUR.sub("", _ANSI.sub("", raw.rstrip("\r\n")))
    text = _QUOTE_PREFIX.sub("", text, count=1)
    text = _JOURNAL_PREFIX.sub("", text, count=1)
    text = _COMPOSE_PREFIX.sub("", text, count=1)
    text = _GUTTER_PREFIX.sub("", text, count=1)
    text = _ISO_PREFIX.sub("", text, count=1)
    text = _FASTCHAT_PREFIX.sub("", text, count=1)
    text = _TORCHSERVE_PREFIX.sub("", text, count=1)
    if logfmt := _LOGFMT_RECORD.match(text):
        text = _LOGFMT_ESCAPE.sub(r"\1", logfmt.group(1))
    text = _RANK_PREFIX.sub("", text, count=1)
    tag = ""
    # The API server prefixes its children's output with its own tag: "(APIServer pid=1) (EngineCore_DP0 pid=68)
    # ERROR ...". The innermost tag names the process that logged the line.
    while proc := _PROC_TAG.match(text):
        tag = proc.group(1) or "pid"
        text = text[proc.end():]
    # (FastChat's worker run as a Ray actor: its stderr prefix follows the actor's tag)
    text = _FASTCHAT_PREFIX.sub("", text, count=1)
    text = _RANK_PREFIX.sub("", text, count=1)
    text = _RUNNER_TAG.sub("", text, count=1)
    text = _MARKDOWN_BOLD.sub(r"\1", text, count=1)
    if _RICH_HEADER.match(text):
        text = "Traceback (most recent call last):"
    elif rich := _RICH_FRAME.match(text):
        text = f'  File "{rich.group(1)}", line {rich.group(2)}, in {rich.group(3)}'
    elif notebook := _NOTEBOOK_FRAME.match(text):
        text = f'  File "{notebook.group(1)}", line {notebook.group(2)}, in {notebook.group(3)}'
    elif notebook := _NOTEBOOK_OLD_FRAME.match(text):
        text = f'  File "{notebook.group(1)}", line 0, in {notebook.group(2)}'
    elif pytest_frame := _PYTEST_FRAME.match(text):
        text = f'  File "{pytest_frame.group(1)}", line {pytest_frame.group(2)}, in {pytest_frame.group(3)}'
    level = None
    for header in (_VLLM_HEADER, _BARE_HEADER, _UVICORN_HEADER, _RAY_HEADER):
        found = header.match(text)
        if found:
            level = found.group(1)
            text = text[found.end():]
            break
    else:
        glog = _GLOG_HEADER.match(text)
        if glog:
            level = _GLOG_LEVELS[glog.group(1)]
            text = _COMPILE_ID.sub("", text[glog.end():], count=1)
    text = _ACTOR_ADDRESS.sub(r"\1", text, count=1)
    return Line(index=index, raw=raw.rstrip(), message=text, level=level, tag=tag)


# A record header inside a line: a log pasted as inline code runs its records together on one line
# ('... 200 OK INFO 02-10 15:09:45 engine.py:275] Added request ... ERROR 02-10 15:10:20 serving_chat.py:193] ...').
_EMBEDDED_RECORD = re.compile(r"(?<=\S) (?=(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d )"
                              r"|(?<=\S) (?=INFO: +\d+\.\d+\.\d+\.\d+:\d+ - \")")
# A traceback whose line breaks were lost in the paste: "... [rank0]: File "x.py", line 52, in __init__ [rank0]:
# self._init_executor() [rank0]: File ...".
_FLATTENED_FRAME = re.compile(r"(?<=\S) (?=\[rank\d+\]: )|(?<=\S) (?=File \"[^\"]+\", line \d+, in )")


# A record printed right after a progress bar's redraw, on the bar's line (tqdm leaves the cursor at the bar's end):
# "Running generate_until requests:   0%|          | 0/500 [00:00<?, ?it/s]INFO 07-09 03:51:34 [flashinfer.py:123] ...".
_AFTER_PROGRESS_BAR = re.compile(r"(?<=(?:it/s|s/it)\]) ?(?=(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) "
                                 r"\d\d-\d\d \d\d:\d\d:\d\d|\((?:[\w:.-]+,? )?(?:rank=\d+ )?pid=\d+)")


def _records(log_text: str) -> list[str]:
    """The log's records, one a line: a line holding two or more record headers is split at each, and a record
    printed on a progress bar's line is split from the bar."""
    records = []
    for whole in log_text.splitlines():
        for raw in _AFTER_PROGRESS_BAR.split(whole):
            for joined in (_EMBEDDED_RECORD, _FLATTENED_FRAME):
                if len(joined.findall(raw)) >= 2:
                    records.extend(joined.split(raw))
                    break
            else:
                records.append(raw)
    return records


# Where a line of vLLM's, Ray's or Python's own output starts: a record header, a process tag, a traceback.
_OWN_LINE_START = re.compile(
    r"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d|\((?:[\w:.-]+,? )?(?:rank=\d+ )?pid=\d+"
    r"(?:, ip=[\d.]+)?\) |Traceback \(most recent call last\):|File \"[^\"]+\", line \d+, in ")


def _prefix_shape(prefix: str) -> str:
    """A pattern for a prefix a tool puts before each line: its text, any run of digits standing for any other."""
    return "".join(r"\d+" if part.isdigit() else re.escape(part) for part in re.split(r"(\d+)", prefix) if part)


def _learned_prefix(lines: list[Line]) -> re.Pattern[str] | None:
    """The prefix an unknown tool (a job runner, a platform's log export) put before each line, learned from the log.

    A line whose own output starts after some text ("[2025-09-25 20:03:20] [/bin/sh]:   File ...") shows the prefix;
    one that recurs (digits aside) on several lines is the tool's, and comes off every line that starts with it (the
    source lines under a frame too)."""
    shapes: dict[str, int] = {}
    for line in lines:
        found = _OWN_LINE_START.search(line.message)
        if found is None or found.start() == 0 or line.level is not None or line.is_frame:
            continue
        prefix = line.message[:found.start()].rstrip()
        if prefix and len(prefix) <= 80 and '"' not in prefix:
            shape = _prefix_shape(prefix)
            shapes[shape] = shapes.get(shape, 0) + 1
    if not shapes:
        return None
    shape, count = max(shapes.items(), key=lambda item: item[1])
    return re.compile(f"^{shape} ?") if count >= 2 else None


def _parse(log_text: str) -> list[Line]:
    records = _records(log_text)
    lines = [_parse_line(i, raw) for i, raw in enumerate(records)]
    learned = _learned_prefix(lines)
    if learned is not None:
        lines = [_parse_line(i, learned.sub("", line.message, count=1))
                 if line.level is None and learned.match(line.message) else line for i, line in enumerate(lines)]
    # The source line printed under a frame ("    raise ValueError(") is part of the frame.
    # So are the indented lines after it (a multi-line call: `raise ValueError("No available ... "`, `"Try ..."`).
    previous_frame_by_tag: dict[str, bool] = {}
    after_file_line: dict[str, bool] = {}
    for line in lines:
        if (_FRAME.match(line.message) or _CARETS.match(line.message)
                # (an exception line ends the frames even when indented: pip indents a build's whole output)
                or (previous_frame_by_tag.get(line.tag) and not _EXCEPTION.match(line.message)
                    and (line.message.startswith("    ") or _NOTEBOOK_SOURCE.match(line.message)))
                # a paste that lost the indentation: the source line right under `File "...", line N` is code
                or (after_file_line.get(line.tag) and _SOURCE_LIKE.match(line.message)
                    and not _EXCEPTION.match(line.message))):
            line.is_frame = True
        previous_frame_by_tag[line.tag] = line.is_frame
        after_file_line[line.tag] = bool(_FRAME.match(line.message))
    # An excerpt that starts inside a traceback: an indented source line ("    raise ValueError(",
    # "    output = executor(*args)") whose frame line was cut off above is still the traceback's body,
    # recognised by the carets or the frame that follow it in the same process.
    for line, after in ((lines[i], lines[i + 1]) for i in range(len(lines) - 1)):
        if (not line.is_frame and line.message.startswith("    ") and after.tag == line.tag
                and not _EXCEPTION.match(line.message)
                and (_CARETS.match(after.message) or _FRAME.match(after.message))):
            line.is_frame = True
    # Python prints errors raised in __del__ as "Exception ignored in: <function X.__del__>" and goes on;
    # that traceback is teardown noise, not the failure.
    ignored = None
    for line in lines:
        if _IGNORED_EXCEPTION.match(line.message):
            ignored = line.tag
            line.ignored = True
        elif ignored is not None and line.tag == ignored:
            if line.is_frame or _TRACEBACK.match(line.message):
                line.ignored = True
            elif _EXCEPTION.match(line.message):
                line.ignored = True
                ignored = None
            else:
                ignored = None
    return lines


def _traceback_context(lines: list[Line], index: int, limit: int = 200, frames_only: bool = False,
                       any_process: bool = False) -> str:
    """The traceback that ends at ``index`` (same process tag, or any with ``any_process``), as one text;
    ``frames_only`` leaves out the log lines between (a config line naming the task 'generate' is not a frame in
    ``generate``)."""
    tag = lines[index].tag
    parts = []
    for line in reversed(lines[max(0, index - limit):index]):
        if line.tag != tag and not any_process:
            continue
        if _TRACEBACK.match(line.message):
            break
        if line.is_frame or not frames_only:
            parts.append(line.message)
    return "\n".join(reversed(parts))


def _chained_traceback(lines: list[Line], index: int, limit: int = 200) -> str:
    """The traceback that the exception at ``index`` caused, when Python chains one after it (same process tag)."""
    tag = lines[index].tag
    after = [line.message for line in lines[index + 1:index + 1 + limit] if line.tag == tag]
    for position, message in enumerate(after):
        if _CHAINED_CAUSE.match(message):
            return "\n".join(after[position + 1:])
        if not (message.strip() == "" or message.startswith(" ") or _EXCEPTION.match(message)):
            break
    return ""


_CHAINED_CAUSE = re.compile(r"^\s*(?:The above exception was the direct cause of the following exception"
                            r"|During handling of the above exception, another exception occurred):")


# ---------------------------------------------------------------------------------------------
# Progress markers: which phase a line sits in
# ---------------------------------------------------------------------------------------------

# argparse's usage text: before its error line when it rejects a flag, or at the head of a --help page
# (newer releases' subcommands print "usage: vllm serve [model_tag] [options]")
_ARGPARSE_USAGE = re.compile(r"^usage: (?:vllm|[\w./-]*api_server\.py|[\w./-]*run_batch\.py)(?: [a-z][\w-]*)* "
                             r"\[(?:-h|model_tag)\]")
_ARGPARSE_HELP = re.compile(r"^(?:positional arguments|options|optional arguments):$")
_RUN_START = re.compile(
    r"non-default args:|args: Namespace\(|vLLM API server version|^Started .*\.service|^Starting .*\.service"
)
_VLLM_ACTIVITY = re.compile(
    # (V0's API server prints its parsed arguments, "api_server.py:727] args: Namespace(", as its start's first line)
    r"non-default args:|args: Namespace\(|vLLM API server version|Initializing an? (V1 )?LLM engine"
    r"|Resolved architecture|This model supports multiple tasks"
    r"|Starting to load model|Loading safetensors checkpoint shards|vLLM (?:API server )?version \d+\.\d+\.\d+"
    # the logo newer releases print as the API server starts, its version beside the last glyphs' row
    r"|[█▀▄] +version \d+\.\d+"
    r"|Automatically detected platform|Using max model len"
    # platform plugins are resolved as the process starts, before the args are read
    r"|Platform plugin \w+ is activated|Available plugins for group vllm\.|No platform detected, vLLM is running"
    r"|No plugins for group vllm\.platform_plugins found|Checking if \w+ platform is available"
    # the multiprocessing executor starting its workers
    r"|Reducing Torch parallelism from \d+ threads"
    # V0's API server choosing its engine's IPC path as it starts (0.6); argparse's usage text, printed as the
    # process reads its arguments
    r"|Multiprocessing frontend to use ipc://|" + _ARGPARSE_USAGE.pattern
)
_LOAD_DONE_TEXT = (
    r"Loading weights took|Model loading took|Loading model weights took|model weights took"
    r"|Memory profiling takes|init engine \(profile|KV cache size:|# (?:GPU|CPU|cuda) blocks:"
    r"|Available KV cache memory|Maximum concurrency for|Capturing CUDA graph|Graph capturing finished"
    r"|CUDA graphs can take additional|Estimated CUDA graph memory|Explicitly set \([\d.]+/[\d.]+\) GiB for KV"
    # (the graphs' pool measured once they are captured: "CUDA graph pool memory: 0.09 GiB (actual), 0.13 GiB
    # (estimated)")
    r"|CUDA graph pool memory: [\d.]+ GiB \(actual\)"
    # (Aphrodite Engine's wording, a vLLM fork: "Model weights loaded. Memory usage: 17.15 GiB x 4 = 68.60 GiB")
    r"|Model weights loaded\. Memory usage:"
)
_LOAD_DONE = re.compile(_LOAD_DONE_TEXT)
_SERVING_TEXT = (
    r"Application startup complete|Uvicorn running on|Starting vLLM (?:API )?server (?:\d+ )?on https?://"
    # a request answered with 2xx or 4xx (a client's error is an answer too): the server was listening
    r'|"GET /health HTTP/[\d.]+" 200|Avg prompt throughput|"(?:POST|GET|PUT|DELETE|PATCH) /?\S* HTTP/[\d.]+" [24]\d\d'
    # (a WebSocket handshake the server answered, the realtime API's: uvicorn writes no HTTP version for it)
    r'|"WebSocket /\S*" [24]\d\d'
    r"|Route: /\S*, Methods:|Available routes are|Started server process"
    # the API server logs each request it takes (V0's and V1's request logger)
    r"|Received request \S+: prompt"
    # a benchmark client's report of requests the server completed (benchmark_serving, `vllm bench serve`)
    r"|^Successful requests: +[1-9]\d*\s*$|^Average latency per (?:output )?token: [\d.]+ s"
    # the server's /metrics answer (Prometheus text, "vllm:request_params_n_count{model_name=...} 1.0"): only a
    # running API server exposes vllm: metrics (a scraper's table puts " | " between the series and its value)
    r"|^vllm:\w+(?:\{[^}]*\})?\s+(?:\|\s+)?-?[\d.]+(?:e[+-]?\d+)?\s*$"
    # (its metadata lines, whichever metrics it lists: the Python process's, a plugin's such as LMCache's)
    r"|^# (?:HELP [\w:]+ \S|TYPE [\w:]+ (?:counter|gauge|histogram|summary|untyped)\s*$)"
    # the server's /v1/models answer: a model it serves
    r'|"id": ?"[^"]+", ?"object": ?"model"'
    # vllm-ascend's workers replay their captured graph for each step they run on requests (capture logs its own line)
    r"|Replaying aclgraph"
    # a KV connector's record of a request the engine finished (NIXLConnector's DEBUG "request_finished(<request id>),
    # request_status=FINISHED_LENGTH_CAPPED"): a prefill or decode pod that served it
    r"|request_finished\(\S+\), request_status=FINISHED_"
    # V0's KV connectors reporting a request's KV cache sent or received between prefill and decode instances
    # ("[rank0]: KV send DONE.", "sent to connector LMCacheConnector", "Successfully received all KVs and hidden
    # states, skip model forwarding")
    r"|\[rank\d+\]: KV send DONE|sent to connector \w+Connector|Successfully received all KVs and hidden states"
)
_SERVING = re.compile(_SERVING_TEXT)
# The markers a server prints once, as it starts to listen; the others (a stats line, a request's access line) repeat
# while it serves, so an excerpt whose first serving marker is one of those may have begun after the start.
_SERVER_UP = re.compile(r"Application startup complete|Uvicorn running on|Starting vLLM (?:API )?server"
                        r"|Route: /\S*, Methods:|Available routes are|Started server process")
# An offline run (LLM.generate) whose progress bar reached the end: every prompt it was given was served.
# (benchmark_throughput's result line is printed once its offline run has processed every prompt)
_OFFLINE_RUN_DONE = re.compile(r"Processed prompts: 100%\|[^|]*\|\s*(\d+)/\1\b|^Throughput: [\d.]+ requests/s, ")
_REQUESTED_SHUTDOWN = re.compile(
    r"shutdown triggered|trigger received signal=SIG(?:TERM|INT)|[Rr]eceived (?:signal )?SIG(?:TERM|INT)"
    r"|^KeyboardInterrupt|^Stopping .*\.service"
)

# The milestones a start prints, in the order it reaches them, and the phase each one opens: an error
# sits in the phase of the last milestone reached before it (process start and config resolved open
# `load`, weights loaded opens `startup`, the server listening opens `runtime`).
STAGES = ("load", "startup", "runtime")
_MILESTONES = (
    ("load", re.compile(
        _VLLM_ACTIVITY.pattern + r"|Loading weights on|Using model weights format|Loading model from scratch"
        r"|rank \d+ in world size \d+ is assigned|distributed_init_method=\S+ backend=|world_size=\d+ rank=\d+"
        r"|Using \w+ (?:attention )?backend|Defaulting to use (?:mp|ray) for distributed|Started engine process"
        r"|Connect(?:ing to existing|ed to) Ray cluster|Using address \S+ set in the environment variable RAY_ADDRESS"
        # (no Ray cluster to join: the engine starts its own for its workers; or `ray start` on a node for them)
        r"|Started a local Ray instance|Ray runtime started"
        # transformers loading the model's tokenizer files in the process that runs the engine
        r"|loading file (?:vocab\.json|tokenizer\.json|tokenizer\.model|merges\.txt|tokenizer_config\.json)"
        # the CLI's warning as it parses `vllm serve --model ...` (the process has started and read its arguments)
        r"|you should provide the model as a positional argument"
        # NCCL is found and loaded as the workers set up their communicators (distributed init)
        r"|vLLM is using nccl==|Found nccl from library"
        # the workers' shared-memory message queue set up with the executor (distributed init)
        r"|vLLM message queue communication handle"
        # custom all-reduce checking which GPUs reach each other as the workers' communicators are set up
        r"|reading GPU P2P access cache"
        # NCCL_DEBUG=INFO's report of a communicator's set-up ("NCCL INFO ncclCommInitRank comm 0x26 rank 1 ...")
        r"|NCCL INFO (?:ncclCommInitRank|Connected all (?:rings|trees)|Using network|Bootstrap|comm 0x)"
        # LMCache's engine created for vLLM's KV connector as the workers start, before the model loads
        r"|LMCache INFO: Creating LMCacheEngine instance"
        r"|Initializing a V\d LLM engine")),
    ("startup", re.compile(
        _LOAD_DONE_TEXT + r"|Starting profile run|GPU KV cache size|Capturing cudagraphs|Profiling CUDA graph memory"
        # (the piecewise backend's DEBUG lines, one per captured shape)
        r"|Capturing a cudagraph for shape"
        r"|Capturing the model for CUDA graphs|torch\.compile takes|Dynamo bytecode transform"
        # (newer releases' wording of the compile's timings: "torch.compile took 50.86 s in total", "Compiling a graph
        # for compile range (1, 8192) takes 25.23 s")
        r"|torch\.compile took|Compiling a graph for \w+"
        # V1's memory profile sizing the encoder cache of a multi-modal model before its dummy encoder run
        r"|Encoder cache will be initialized with a budget"
        # V1 warms its kernels up after the KV cache is sized (FlashInfer, DeepGEMM); the API server lists the tasks
        # the engine reported once it is up and warms its multi-modal processor before it listens
        r"|Warming up FlashInfer|Supported tasks: \[|Multi-modal warmup completed"
        # Gaudi's HPU runner warms up each prompt and decode bucket once the KV cache is sized ("[Warmup][Decode]
        # [204/416] batch_size:224 num_blocks:384 free_mem:14.93 GiB")
        # (newer forks name the graph bucket: "[Warmup][Graph/mix/decode][1/112]")
        r"|\[Warmup\]\[[\w/]+\]\[\d+/\d+\]"
        # FlashInfer's autotuner timing its MoE and GEMM kernels in vLLM's kernel warm-up, after the KV cache is sized
        r"|\[Auto[Tt]uner\]: (?:Autotuning process starts|Tuning flashinfer::)"
        # the memory profile's summary, one figure a line (0.6.5+: "Memory profiling results:", "model weights take")
        r"|Memory profiling results|available_kv_cache_memory|the current vLLM instance can use")),
    # "Processed prompts: 0%|": the offline LLM.generate progress bar, printed once requests run.
    # Sleep mode frees the weights and KV cache of an engine that is up (RL rollouts, the /sleep endpoint).
    # A request answered with 5xx is a milestone too (the server was listening and took it), though not a sign of a
    # healthy serving engine (_SERVING): what fails after it fails while serving.
    ("runtime", re.compile(_SERVING_TEXT + r"|Available routes are|Added request|Received request"
                           r"|Processed prompts:|^Throughput: [\d.]+ requests/s, "
                           # `vllm run-batch` running its requests (its progress bar, then the outputs written)
                           r"|^Running batch: +\d+% Completed|Writing outputs to local file"
                           r"|seconds to fall asleep|Sleep mode freed|sleep freed [\d.]+ GiB"
                           # V0's scheduler preempting a running request when the KV cache fills: requests were running
                           r"|is preempted by PreemptionMode"
                           # ...and woken again for the next rollout, its prefix cache reset (RL trainers)
                           r"|seconds to wake up tags|Successfully reset prefix cache"
                           r'|"(?:POST|GET|PUT|DELETE|PATCH) /\S* HTTP/[\d.]+" 5\d\d'
                           # an API client's report of a 5xx answer (the OpenAI SDK's "Error code: 500", "Internal
                           # Server Error"): the server was up and took the request
                           r'|\bError code: 5\d\d\b|\bInternal Server Error\b|"code": ?5\d\d\b'
                           # V1's engine core runs a client's utility call (collective_rpc: an RL trainer's weight
                           # sync, a cache reset) only once it is up; its failure is logged as it happens
                           r"|Invocation of \w+ method failed"
                           # the API server failing one request as it prepares it (newer releases' wording)
                           r"|Unexpected error pre-processing request"
                           # an HTTP client (httpx, h11) whose answer stream was cut: the server had taken the
                           # request and was answering it
                           r"|peer closed connection without sending complete message body"
                           # uvicorn's report of the app raising while it handled a request (its lifespan start
                           # logs "Exception in 'lifespan' protocol" instead): the server was listening
                           r"|Exception in ASGI application"
                           # a decode instance's KV connector recomputing a request whose KV cache did not arrive
                           r"|Failed to receive all KVs and hidden states"
                           # NIXL's connector on a prefill engine releasing the KV blocks of requests it has served
                           # that no decode instance fetched in time
                           r"|Releasing expired KV blocks for request"
                           # a decode instance's scheduler holding a request whose KV cache a prefill peer has not
                           # sent yet ("chatcmpl-... is still in WAITING_FOR_REMOTE_KVS state.")
                           r"|is still in WAITING_FOR_REMOTE_KVS state"
                           # vllm-omni's API server taking a request: its orchestrator scheduling it, a stage's client
                           # adding it, a diffusion chat request logged
                           r"|\[AsyncOrchestrator\] Entering scheduling loop|\[StageEngineCoreClient\] stage-\d+ "
                           r"\[rep-\d+\] add request:|Diffusion chat request \S+: prompt="
                           # LMCache's connector inside the engine looking up, storing or loading a request's KV
                           # cache ("LMCache INFO: Reqid: cmpl-..., Total tokens 36, LMCache hit tokens: 0")
                           r"|\bLMCache hit tokens: \d+|\bStor(?:ed|ing KV cache for) \d+ out of (?:total )?\d+ tokens"
                           r"|\bRetrieved \d+ out of (?:total )?\d+"
                           r"|number of retrieved tokens is less than the expected")),
)
# A function torch keeps from being compiled (torch.manual_seed under torch._disable_dynamo) is called through
# torch/_compile.py's `inner` and Dynamo's frame wrapper `_fn`: that wrapper's frame is a call, not a compilation, so it
# is taken out before the frames are read.
_DISABLED_DYNAMO_CALL = re.compile(r'(torch/_compile\.py", line \d+, in inner\n(?:[^\n]*\n){0,2}?)[^\n]*'
                                   r'torch/_dynamo/eval_frame\.py", line \d+, in _fn\b[^\n]*')
# Frames of a traceback name the step that failed; the deepest step wins.
_FRAME_STAGES = (
    ("runtime", re.compile(
        r"\b(?:run_engine_loop|engine_step|run_busy_loop|_process_engine_step|step_with_batch_queue|_run_engine"
        r"|execute_model_async|_raise_exception_on_finish|create_chat_completion|create_completion|output_handler"
        r"|wake_up"
        # V0's workers enter their execution loop with the first step that runs requests
        r"|start_worker_execution_loop"
        r"|chat_completion_stream_generator|process_inputs|_validate_model_inputs?"
        r"|add_request|generate|_validate_and_add_requests|_preprocess_chat|_preprocess_completion"
        # an RL trainer's rollout step (verl's and its forks' worker groups; TRL's GRPO trainer and the trainers built
        # on it, ms-swift's among them) and the trainer's training step around it: the engine is up and generating
        r"|generate_sequences|_generate_and_score_completions|training_step"
        # V0's async engine takes a request in and preprocesses it (tokens, multimodal inputs) as it arrives
        r"|add_request_async|preprocess_async"
        # V0's multiprocessing executor runs the driver worker's step for execute_model_async (requests only)
        r"|driver_exec_model|_driver_execute_model_async"
        # V1 checks each request's structured-output spec (its JSON schema, regex or grammar) as it arrives
        r"|validate_structured_output_request\w*|_validate_structured_output"
        # the API server's per-request handling (an endpoint, an HTTP middleware), never run by the lifespan
        r"|run_endpoint_function|call_next"
        # uvicorn running the app for one HTTP request (and Starlette's per-request middleware); the API client
        # reading a step's outputs from the engine core
        r"|run_asgi|wrap_app_handling_exceptions|get_output_async|process_outputs_socket)\b"
        r"|starlette/middleware/"
        # V1 runs execute_model for scheduled requests only (its memory profile and warm-up are dummy runs); V0's
        # profile run went through execute_model too, so only V1's paths count. V1's runner prepares a step's inputs
        # from the scheduler's output only for such a step (its dummy runs build their own).
        r"|vllm/v1/(?:worker|executor)/\w+\.py\", line \d+, in (?:execute_model|_prepare_inputs)\b"
        # (a platform plugin's V1 runner is called the same way, with the step's scheduler output)
        r"|\bexecute_model\(scheduler_output\b"
        # Ray's compiled graph carries the scheduled steps between the engine and its workers (built on the first)
        r"|ray/experimental/channel/"
        # the OpenAI server's per-request modules (serving_chat.py, completion/serving.py): building a request's
        # response (their constructors and the chat template's warm-up run at start)
        r"|vllm/entrypoints/openai/(?:\w+/)*serving\w*\.py\", line \d+, in (?!__init__|warmup)\w+")),
    ("startup", re.compile(
        r"\b(?:_initialize_kv_caches|initialize_kv_cache|determine_num_available_blocks|determine_available_memory"
        r"|profile_run|profile_cudagraph_memory|_dummy_run|_dummy_sampler_run|capture_model|initialize_cache"
        r"|raise_if_cache_size_invalid|initialize_from_config"
        # the KV cache's tensors allocated once its size is known (V1's runner, kvcached, platform runners)
        r"|initialize_kv_cache_tensors|_allocate_kv_cache_tensors"
        # a device runner's warm-up of its graphs and shapes (HPU, TPU) before the server listens
        r"|warmup_model|warmup_graphs|warmup_scenario|kernel_warmup|deep_gemm_warmup"
        # the API server waiting for its engine core to report ready (the engine-start wrapper's family)
        r"|wait_for_engine_startup|_wait_for_engine_startup|launch_core_engines"
        r"|_?check_enough_kv_cache_memory|get_kv_cache_configs?|compile_or_warm_up_model"
        # V1's engine core builds its scheduler and KV cache manager once the KV cache is sized
        r"|get_kv_cache_coordinator)\b"
        # the multi-modal profiler building the memory profile's dummy images, audio or video
        r"|vllm/multimodal/profiling\.py\", line \d+, in \w+"
        r"|vllm/v1/core/(?:sched/scheduler|kv_cache_manager|kv_cache_coordinator)\.py\", line \d+, in __init__"
        # (Inductor's static CUDA launcher runs the compiled kernels at every step: running, not compiling)
        r"|torch/_inductor/(?!runtime/static_cuda_launcher)|torch/_dynamo/|torch/_functorch/"
        # vLLM's own compilation backend splitting and compiling the captured graph
        r"|vllm/compilation/backends\.py\", line \d+, in (?:split_graph|compile)\b")),
    ("load", re.compile(
        r"\b_?(?:load_model|load_weights|get_model|init_device|init_worker|initialize_model_parallel"
        # (the world group the distributed environment creates first, before the model-parallel groups)
        r"|init_distributed_environment|init_world_group"
        r"|init_model_parallel_group|init_worker_distributed_environment|initialize_ray_cluster"
        r"|_get_executor_cls|from_pretrained|_cuda_init|_lazy_init|new_group|GroupCoordinator"
        r"|make_layers|run_mp_engine|from_engine_args|_init_engine|run_engine_core|build_async_engine_client\w*"
        # (--cpu-offload-gb moving a layer's weights to pinned CPU memory as make_layers builds it)
        r"|maybe_offload_to_cpu"
        # the model built and its checkpoint read into it (_initialize_model, AutoWeightsLoader's _load_module)
        r"|_?initialize_model|_load_module|_load_param|get_model_architecture|\w*weight_loader\w*"
        # the CLI building its argument parser (the process has just started), the engine's config resolved from its
        # arguments and the model's files, the tokenizer loaded
        r"|make_arg_parser|subparser_init|create_engine_config|create_model_config|_get_and_verify_max_len|load_params_config|get_hf_text_config"
        r"|get_quant_config"
        r"|get_tokenizer|cached_get_tokenizer|init_tokenizer_from_configs"
        # the offline LLM's constructor builds its engine (V0's LLMEngine constructor, before it sizes the KV cache)
        r"|vllm/entrypoints/llm\.py\", line \d+, in __init__|vllm/engine/llm_engine\.py\", line \d+, in __init__"
        r"|PyNcclCommunicator|ncclCommInitRank\w*|request_memory|_init_executor|_init_workers\w*"
        # V1's engine builds its executor (the workers' device init and model load) before it sizes the KV cache;
        # a checkpoint's weights are repacked for their kernels as they are loaded
        r"|process_weights_after_loading|\w+_repack|\w+_weights_iterator"
        # building the model's layers (a model's or a layer's constructor) and resolving the platform at import
        r"|vllm/model_executor/(?:models|layers)/\S+\", line \d+, in __init__|vllm/platforms/__init__\.py"
        # the model runner building its speculative-decoding proposer (EAGLE, MTP, n-gram) with the model
        r"|vllm/v1/spec_decode/\S+\", line \d+, in __init__"
        # a worker's constructor, vLLM's or a platform plugin's (tpu_inference's, vllm_ascend's): before its device
        # is set up and its model loaded
        r"|/worker/\w*worker\w*\.py\", line \d+, in __init__"
        r"|run_server|init_process_group|_create_c10d_store|_tcp_rendezvous_handler|init_model"
        # the executor's shared-memory message queues, created as its workers start
        r"|create_from_process_group\w*)\b"
        # Ray: an actor that fails in its creation task failed in its constructor (the engine or worker init); Ray
        # Serve's controller waiting for a replica to be ready (its constructor loads the model)
        r"|error raised in its creation task|serve/_private/deployment_state\.py\", line \d+, in check_ready"
        # (and the replica's own initialisation, which runs the deployment's constructor)
        r"|serve/_private/replica\.py\", line \d+, in (?:initialize_and_get_metadata|_?initialize_replica)"
        # V1: a worker process that fails to start failed in its constructor (init_device, load_model).
        r"|WorkerProc (?:failed to start|initialization failed)|= WorkerProc\(|= executor_class\(")),
)


def _later(first: str | None, second: str | None) -> str | None:
    """The later of two phases of a start (None: not known)."""
    known = [phase for phase in (first, second) if phase]
    return max(known, key=STAGES.index) if known else None


# A model's forward pass (torch's module call, a layer's forward) with no step named above it: the first forward an
# engine runs is the memory profile; while serving, the serving milestone or the engine loop's frames say so.
_FORWARD_FRAMES = re.compile(r"\bin (?:forward|_call_impl|_wrapped_call_impl)\b")


# The API server warms its per-request code up before it listens (the chat-completion warm-up renders a chat): a
# request's frames under its `warmup` frame are the start's.
_SERVER_WARMUP_FRAME = re.compile(r"vllm/entrypoints/\S+\.py\", line \d+, in _?warm_?up\w*")
# ...and the per-request code's own logger saying so ("[serving.py:217] Chat template warmup failed")
_SERVER_WARMUP_WORDS = re.compile(r"\bwarm-?up\b", re.IGNORECASE)


def _frame_stage(text: str) -> str | None:
    text = _DISABLED_DYNAMO_CALL.sub(r"\1", text)
    if _SERVER_WARMUP_FRAME.search(text):
        return "startup"
    for stage, pattern in _FRAME_STAGES:
        if pattern.search(text):
            return stage
    return None


def _forward_stage(text: str) -> str | None:
    """The last resort for a traceback that names no step: a forward pass is the memory profile's."""
    return "startup" if _FORWARD_FRAMES.search(text) else None


# vLLM's logger writing from its config module ("INFO 02-01 03:51:32 config.py:1537] Chunked prefill is enabled ..."):
# the engine's configuration being resolved from its arguments and the model's files, a step of the load whatever the
# message says.
_CONFIG_LOGGER = re.compile(r"\b(?:DEBUG|INFO|WARNING|WARN|ERROR)\s+\d\d-\d\d\s+\d\d:\d\d:\d\d(?:\.\d+)?\s+\[?"
                            r"(?:[\w./-]*/)?config\.py:\d+\]")


def _milestone_of(line: Line) -> str | None:
    """The latest phase a line's milestones open (None: it names no step)."""
    reached = "load" if _CONFIG_LOGGER.search(line.raw) else None
    for stage, pattern in _MILESTONES:
        if pattern.search(line.message):
            reached = _later(reached, stage)
    return reached


# The process tags of vLLM's own engine and worker processes ("(EngineCore_DP0 pid=12)", "(VllmWorker rank=1 pid=9)",
# "(Worker_TP0 pid=5)", "(RayWorkerWrapper pid=812)", V0's "(VllmWorkerProcess pid=3)").
_VLLM_PROCESS_TAG = re.compile(r"^(?:EngineCore\w*|VllmWorker\w*|Worker_\w+|RayWorkerWrapper)$")


@dataclass
class _Run:
    lines: list[Line]
    serving: int | None = None
    load_done: int | None = None
    activity: bool = False
    process_up: bool = False  # a line of vLLM's engine core or a worker (its process tag)
    shutdown: int | None = None
    stages: list[tuple[int, str]] = field(default_factory=list)  # (line index, phase reached there)
    # The excerpt begins while the server was already serving: its first serving marker is one that repeats (a stats
    # line, an access line) and no step of a start comes before it, so the lines above it were logged while serving.
    joined_while_serving: bool = False

    def __post_init__(self) -> None:
        reached = None
        for line in self.lines:
            text = line.message
            if self.serving is None and _SERVING.search(text):
                self.serving = line.index
            if self.load_done is None and _LOAD_DONE.search(text):
                self.load_done = line.index
            if not self.activity and (_VLLM_ACTIVITY.search(text) or _LOAD_DONE.search(text)
                                      or _SERVING.search(text)):
                self.activity = True
            if self.shutdown is None and _REQUESTED_SHUTDOWN.search(text):
                self.shutdown = line.index
            if _STEP_DUMP_LOGGER.search(line.raw):
                self.activity = True  # V1's crash dump of a failed step: an engine that was serving
            if _VLLM_PROCESS_TAG.match(line.tag):
                # vLLM's engine core or a worker logging anything (a plugin's config, a warning): that process is up,
                # so the start has reached the engine's construction at least (a weak sign: only when nothing else
                # names the step)
                self.activity = self.process_up = True
            if line.is_frame:
                continue
            reached = _later(reached, _milestone_of(line))
            if reached and (not self.stages or self.stages[-1][1] != reached):
                self.stages.append((line.index, reached))
        self.joined_while_serving = self._joined_while_serving()

    def _joined_while_serving(self) -> bool:
        if self.serving is None:
            return False
        first = next(line for line in self.lines if line.index == self.serving)
        return not _SERVER_UP.search(first.message) and not any(
            at < self.serving and stage != "runtime" for at, stage in self.stages)

    def while_serving(self, index: int) -> bool:
        """Whether line ``index`` was logged by a serving server (after its first serving marker, or anywhere in an
        excerpt that began while it served)."""
        return self.serving is not None and (index > self.serving or self.joined_while_serving)

    def before_serving(self, index: int) -> bool:
        """Whether line ``index`` was logged while the server was still starting (it went on to serve)."""
        return self.serving is not None and index < self.serving and not self.joined_while_serving

    def stage_at(self, index: int) -> str | None:
        """The phase of the last milestone at or before line ``index`` (None: no milestone yet)."""
        found = None
        for at, stage in self.stages:
            if at > index:
                break
            found = stage
        return found

    def phase_at(self, index: int, default: str) -> str:
        return self.stage_at(index) or default


def _split_runs(lines: list[Line]) -> list[_Run]:
    """One entry per start of the server (systemd restarts put several in one journal)."""
    runs: list[list[Line]] = [[]]
    for line in lines:
        # Consecutive start lines ("Started x.service", then vLLM's args line) open one run.
        if _RUN_START.search(line.message) and any(not _RUN_START.search(ln.message) for ln in runs[-1]):
            runs.append([])
        runs[-1].append(line)
    return [_Run(run) for run in runs if run]


# ---------------------------------------------------------------------------------------------
# Parameters known for the failed start: explicit context first, then the log's own args
# ---------------------------------------------------------------------------------------------

_NUMERIC_CONTEXT_KEYS = {
    "max_model_len": int, "gpu_memory_utilization": float, "max_num_seqs": int,
    "max_num_batched_tokens": int, "tensor_parallel_size": int, "pipeline_parallel_size": int,
    "data_parallel_size": int, "port": int, "kv_cache_memory_bytes": int,
}
# "non-default args: {'max_model_len': 4096, ...}" (V1) or "args: Namespace(max_model_len=4096, ...)" (V0).
_LOG_ARGS = {key: re.compile(rf"\b'?{key}'?(?:: |=)([\d.]+)") for key in _NUMERIC_CONTEXT_KEYS}
_LOG_MAX_MODEL_LEN = re.compile(r"Using max model len (\d+)")


def _normalise_context(context: Mapping[str, Any] | None) -> dict[str, Any]:
    if context is None:
        return {}
    if not isinstance(context, Mapping):
        raise KimiDeployError(
            f"context must be a mapping of known launch parameters (e.g. {{'max_model_len': 32768}}), "
            f"got {type(context).__name__}"
        )
    out: dict[str, Any] = {}
    for key, value in context.items():
        kind = _NUMERIC_CONTEXT_KEYS.get(key)
        if kind is None or value is None:
            out[key] = value
            continue
        try:
            if isinstance(value, bool):
                raise ValueError
            number = kind(float(value)) if kind is int else float(value)
            if kind is int and float(value) != number:
                raise ValueError
        except (TypeError, ValueError):
            raise KimiDeployError(
                f"context[{key!r}] must be {'a whole number' if kind is int else 'a number'}, got {value!r}: "
                "pass the launch parameter "
                f"the unit was started with, e.g. {key}: 32768"
            ) from None
        if number <= 0:
            raise KimiDeployError(f"context[{key!r}] must be positive, got {value!r}")
        out[key] = number
    return out


def _params_from_log(lines: list[Line]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for line in lines:
        if "non-default args:" in line.message or "args: Namespace(" in line.message:
            for key, pattern in _LOG_ARGS.items():
                value = pattern.search(line.message)
                if value:
                    kind = _NUMERIC_CONTEXT_KEYS[key]
                    found[key] = kind(float(value.group(1))) if kind is int else float(value.group(1))
        used = _LOG_MAX_MODEL_LEN.search(line.message)
        if used:
            found["max_model_len"] = int(used.group(1))
    return found


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------

@dataclass
class Finding:
    cause: str
    steps: list[str]
    parameter_changes: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Hit:
    """What a rule's builder sees: the match, its line, the run, and the known parameters."""
    match: re.Match
    line: Line
    lines: list[Line]
    run: _Run
    params: dict[str, Any]
    phase: str

    def context_text(self) -> str:
        return _traceback_context(self.lines, self.line.index)

    def run_text(self) -> str:
        return "\n".join(line.message for line in self.run.lines)

    def param(self, key: str) -> Any:
        return self.params.get(key)


# The cause class of each rule: the corpus taxonomy (tests/fixtures/vllm-failure-corpus/README.md).
_CLASS_OF_RULE = {
    "architecture_not_supported": "architecture_unsupported", "trust_remote_code_required": "remote_code_required",
    "missing_weight_files": "weights_missing", "corrupt_safetensors": "weights_corrupt",
    "corrupt_pickle_checkpoint": "weights_corrupt", "weight_name_mismatch": "weights_mismatch",
    "weight_shape_mismatch": "weights_mismatch", "tokenizer_file_invalid": "tokenizer_error",
    "tokenizer_load_failed": "tokenizer_error", "max_model_len_over_model_limit": "config_invalid",
    "quantization_mismatch": "config_invalid", "quantization_unsupported_on_gpu": "quantization_unsupported",
    "dtype_unsupported_on_gpu": "dtype_unsupported", "cli_argument_error": "config_invalid",
    "hub_access_failed": "model_download", "disk_full": "resource_limit",
    "python_dependency_missing": "dependency_error", "port_in_use": "port_in_use", "port_bind_denied": "port_in_use",
    "kv_cache_too_small_for_max_model_len": "kv_cache_insufficient", "no_kv_cache_memory": "kv_cache_insufficient",
    "cpu_memory_insufficient": "kv_cache_insufficient", "oom_sampler_warmup": "gpu_oom",
    "gpu_out_of_memory": "gpu_oom", "host_out_of_memory": "host_oom", "too_many_open_files": "resource_limit",
    "attention_heads_not_divisible": "parallel_config_invalid", "parallel_layout_invalid": "parallel_config_invalid",
    "nccl_shared_memory": "nccl_error", "nccl_dmabuf": "nccl_error", "distributed_network": "distributed_network",
    "collective_timeout": "timeout", "nccl_error": "nccl_error", "ray_error": "ray_error",
    "gpu_driver_mismatch": "driver_or_runtime", "gpu_arch_not_in_build": "gpu_arch_unsupported",
    "rocm_math_library_unreadable": "driver_or_runtime",
    "worker_start_method": "worker_start_method", "mamba_cache_blocks_below_max_num_seqs": "kv_cache_insufficient",
    "batched_tokens_below_max_model_len": "config_invalid", "batched_tokens_below_mm_item": "config_invalid",
    "gpu_kernel_fault": "gpu_kernel_fault",
    "timeout_waiting_for_engine": "timeout", "unsupported_engine_option": "config_invalid",
    "attention_backend_unsupported": "attention_backend_unsupported",
    "request_over_context_length": "request_invalid", "request_token_out_of_vocabulary": "request_invalid",
    "request_unknown_field": "request_invalid", "request_unknown_model": "request_invalid",
    "index_out_of_range": "gpu_kernel_fault", "kv_cache_preemption": "kv_cache_insufficient",
    "http_400_responses": "healthy", "http_5xx_responses": "engine_died_unexplained",
    "config_validation": "config_invalid", "config_validation_header": "config_invalid",
    "engine_startup_failed": "engine_died_unexplained",
    "engine_dead": "engine_died_unexplained", "process_exited": "engine_died_unexplained",
}
# Client errors: a serving engine whose only errors are these is healthy.
_CLIENT_CLASSES = ("request_invalid", "healthy")


def _is_client(rule: Rule) -> bool:
    """A client's error (a request the server refused and answered): a serving journal with only these is healthy."""
    return rule.cls in _CLIENT_CLASSES and not rule.server_side


@dataclass
class Rule:
    id: str
    tier: int
    pattern: re.Pattern
    build: Callable[[_Hit], Finding]
    cls: str = "unknown"              # cause class (the corpus taxonomy)
    phase: str | None = None          # fixed phase, whatever the timeline says (binding the port only)
    default_phase: str = "unknown"    # the family's phase when the timeline says nothing (a bare line)
    quiet_levels: bool = False        # also match INFO/WARNING lines
    context: re.Pattern | None = None  # must match the traceback above the line
    context_chained: bool = False     # ...or the traceback it caused ("The above exception was the direct cause")
    context_any_process: bool = False  # ...in any process's lines (a parallel group's workers interleave one traceback)
    hints: tuple[re.Pattern, ...] = ()  # supporting lines for the evidence
    before_serving: bool = False      # cannot happen once serving (the phase holds after the markers)
    server_side: bool = False         # a request's failure on the server's side (a 5xx): not a client's error
    literals: tuple[str, ...] = ()    # every match holds one of these (lower case); () when nothing is required


RULES: list[Rule] = []

_REPEATS = {getattr(_regex_parser, name, None) for name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")} - {None}


def _required_literals(pattern: str) -> tuple[str, ...]:
    """Lower-case ASCII strings of which every match of ``pattern`` holds at least one, or () where it needs none.

    _matches runs every rule on every line, and most lines hold none of a rule's words: a substring test rules
    that out many times faster than the regular expression. Only what the pattern cannot match without is taken
    (literal runs, groups that must appear, every branch of an alternation), so skipping a line is exact."""
    try:
        parsed = _regex_parser.parse(pattern)
    except Exception:  # a parser that differs on this Python: no shortcut, the pattern still runs
        return ()
    return tuple(sorted(_sequence_literals(list(parsed)) or ()))


def _sequence_literals(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    """The most selective set of alternatives one of which every match of this parsed sequence holds."""
    best: frozenset[str] | None = None
    run: list[str] = []

    def consider(options: frozenset[str] | None) -> None:
        nonlocal best
        if options and (best is None or (min(map(len, options)), -len(options))
                        > (min(map(len, best)), -len(best))):
            best = options

    for op, argument in items:
        if op == _regex_parser.LITERAL and argument < 128:
            run.append(chr(argument).lower())
            continue
        if op == _regex_parser.AT:  # \b, ^, $: match no character, so the run goes on
            continue
        consider(frozenset({"".join(run)}) if run else None)
        run = []
        if op == _regex_parser.SUBPATTERN:
            consider(_sequence_literals(list(argument[-1])))
        elif op in _REPEATS and argument[0] >= 1:
            consider(_sequence_literals(list(argument[2])))
        elif op == _regex_parser.BRANCH:
            branches = [_sequence_literals(list(branch)) for branch in argument[1]]
            if all(branches):
                consider(frozenset().union(*branches))
    consider(frozenset({"".join(run)}) if run else None)
    return best


def _register(rule_id: str, tier: int, pattern: str, build: Callable[[_Hit], Finding], *, cls: str | None = None,
              phase: str | None = None, default_phase: str = "unknown", quiet_levels: bool = False,
              context: str | None = None, hints: tuple[str, ...] = (), before_serving: bool = False,
              server_side: bool = False, context_chained: bool = False, context_any_process: bool = False) -> None:
    RULES.append(Rule(
        id=rule_id, tier=tier, pattern=re.compile(pattern), build=build, literals=_required_literals(pattern),
        cls=cls or _CLASS_OF_RULE.get(rule_id, "unknown"), phase=phase,
        default_phase=default_phase, quiet_levels=quiet_levels,
        context=re.compile(context, re.IGNORECASE) if context else None,
        hints=tuple(re.compile(h) for h in hints), before_serving=before_serving, server_side=server_side,
        context_chained=context_chained, context_any_process=context_any_process,
    ))


def _rule(rule_id: str, tier: int, pattern: str, **options: Any
          ) -> Callable[[Callable[[_Hit], Finding]], Callable[[_Hit], Finding]]:
    """A rule whose finding computes something (numbers from the message, the context)."""
    def register(build: Callable[[_Hit], Finding]) -> Callable[[_Hit], Finding]:
        _register(rule_id, tier, pattern, build, **options)
        return build
    return register


def _row(rule_id: str, tier: int, pattern: str, *, cause: str, steps: list[str],
         changes: Mapping[str, Any] | None = None, **options: Any) -> None:
    """A rule whose finding is constant: one row of the table (with the parameter changes it always proposes)."""
    def build(hit: _Hit) -> Finding:
        return Finding(cause=cause, steps=list(steps), parameter_changes=dict(changes or {}))
    _register(rule_id, tier, pattern, build, **options)


def _from_to(hit: _Hit, key: str, new: Any) -> str:
    current = hit.param(key)
    return f"from {current} to {new}" if current is not None else f"to {new}"


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _lower_utilisation(hit: _Hit) -> str:
    current = hit.param("gpu_memory_utilization")
    if current:
        return f"lower gpu_memory_utilization from {current:g} to {max(current - 0.05, 0.5):.2f}"
    return "lower gpu_memory_utilization by 0.05 (e.g. 0.90 -> 0.85)"


def _raise_utilisation(hit: _Hit) -> str:
    current = hit.param("gpu_memory_utilization")
    if current:
        return f"raise gpu_memory_utilization from {current:g} to {min(current + 0.05, 0.95):.2f}"
    return "raise gpu_memory_utilization (e.g. 0.90 -> 0.95)"


def _largest_divisor_at_most(total: int, limit: int) -> int:
    """The largest divisor of total that is <= limit, preferring powers of two (GPU counts)."""
    divisors = [d for d in range(1, limit + 1) if total % d == 0]
    powers = [d for d in divisors if d & (d - 1) == 0]
    return max(powers or divisors)


# ----- load: model files ---------------------------------------------------------------------

# A generative model class run for a pooling task (score, rerank, embed) has no pooling head: this vLLM cannot serve
# that architecture for that task.
_row("pooling_head_missing", 1, r"'\w+For(?:CausalLM|ConditionalGeneration)' object has no attribute 'pooler'",
     cls="architecture_unsupported", default_phase="runtime",
     cause="The model's vLLM class is a generative one without a pooling head, so a pooling request (embed, score, "
           "rerank, classify) cannot run on it.",
     steps=["Serve a checkpoint vLLM supports for that task (its supported-models list, pooling section), or a vLLM "
            "release that adapts this architecture to it (--task / --runner pooling and --convert)"])


@_rule("architecture_not_supported", 1,
       r"architectures? .{0,200}?(?:are|is) not supported|Cannot find model module"
       r"|but Transformers does not recognize this architecture|No model architectures are specified"
       r"|is not a supported (?:model|architecture)"
       # the Transformers fallback (0.8+) refusing it too: no implementation vLLM can run
       r"|has no vLLM implementation and the Transformers implementation is not compatible"
       # a model class that knows some versions of its family only ("Currently, MiniCPMV only supports versions 2.0,
       # 2.5, 2.6, 4.0. Got version: (4, 5)")
       r"|Currently, \w+ only supports versions? "
       # a multi-modal processor that does not know the model type ("Unknown image model type: qwen2_5_vl")
       r"|Unknown (?:image|video|audio|vision) model type: "
       # transformers' GGUF reader meeting an architecture it cannot convert ("Architecture chatglm not supported")
       r"|^(?:\w+\.)*ValueError: Architecture [\w.-]+ not supported",
       default_phase="load")
def _architecture(hit: _Hit) -> Finding:
    names = re.search(r"\[([^\]]*)\]", hit.line.message) or re.search(r"model type `?([\w-]+)`?",
                                                                      hit.line.message)
    what = names.group(1) if names else "the architecture in config.json"
    return Finding(
        cause=f"This vLLM (or its transformers) does not know the model's architecture/model_type ({what}).",
        steps=[
            "Check config.json `architectures` / `model_type` against the installed vLLM's supported list; "
            "a typo or a wrong config.json is fixed in the model files",
            "Otherwise upgrade vLLM (and transformers) to a release that supports this model, or serve the "
            "release the model's recipe names",
        ])


# The model inspection runs the model's import in a subprocess and reports any failure there with this wrapper
# ("Please check the logs for more details"): a recognised error logged with it (a driver abort, a HIP error) is the
# cause, so the wrapper ranks below them. The wrapper alone does not say why the import failed: an architecture vLLM
# does not know is refused by another message ("are not supported for now"), and the subprocess fails as often for
# a missing package, a GPU that does not initialise or a broken build (even for LlamaForCausalLM), so no class.
# (the subprocess's own exit, logged without the wrapper: "Command '[..., '-m',
# 'vllm.model_executor.models.registry']' died with <Signals.SIGSEGV: 11>.")
_row("architecture_inspection_failed", 2, r"failed to be inspected|Error in inspecting model architecture"
     r"|'vllm\.model_executor\.models\.registry'\]' (?:returned non-zero exit status|died with)",
     cls="unknown", default_phase="load",
     cause="vLLM could not inspect the model's architecture (its import of the model class failed in a subprocess, "
           "whose own error the wrapper does not repeat): a vLLM or transformers too old for the model, a missing "
           "package or a broken install, or a GPU the subprocess could not initialise.",
     steps=["Read the subprocess's own error above the wrapper (the first traceback)",
            "Check config.json `architectures` against the installed vLLM's supported list; upgrade vLLM and "
            "transformers to a release that supports the model"])


_row("trust_remote_code_required", 1,
     r"contains custom code which must be executed|requires you to execute the (?:configuration|modeling"
     r"|tokenizer)?\s?file|(?:set|pass|use|setting|passing)\b.{0,30}trust_remote_code=True"
     r"|--trust-remote-code. flag",
     default_phase="load",
     cause='The model ships its own Python code (auto_map in config.json) and the server ran without '
           '--trust-remote-code.',
     steps=[
           "Read the model directory's custom *.py files, then start with --trust-remote-code "
           '(trust_remote_code: true); Kimi K2/K3 always need it'])


# transformers builds the `transformers_modules` package from a remote-code model's *.py files in the process that
# reads its config; a Ray or spawned worker unpickling that config without the package cannot import it.
_row("remote_code_module_missing", 1, r"No module named '?transformers_modules\b",
     cls="remote_code_required", default_phase="load",
     cause="A worker could not import the model's remote code: the `transformers_modules` package transformers "
           "builds from the model's custom *.py files exists in the process that read the config, not in the worker "
           "that unpickled it (an old vLLM under Ray, or an HF_MODULES_CACHE the workers do not share).",
     steps=["Serve with --trust-remote-code on a vLLM that initialises the remote code in every worker, and give every "
            "worker (every Ray node) the same HF_HOME / HF_MODULES_CACHE"])


@_rule("missing_weight_files", 1,
       r"Weight files referenced in index but missing|Cannot find any model weights"
       r"|No such file or directory:? .{0,200}\.(?:safetensors|bin|pt)\b|does not appear to have (?:a )?files? named"
       r"|(?:Missing|missing) (?:shard|weight file)",
       default_phase="load")
def _missing_weights(hit: _Hit) -> Finding:
    files = re.findall(r"[\w.-]+\.(?:safetensors|bin|pt)\b", hit.line.message)
    named = f" ({', '.join(sorted(set(files)))})" if files else ""
    return Finding(
        cause=f"Weight shards listed in the checkpoint index are missing from the model directory{named}: "
              "an incomplete download or copy.",
        steps=[
            "Re-download the missing shards and verify every file against the index and its sha256 "
            "(the deployer's fetch/verify step) before starting vLLM",
        ])


@_rule("corrupt_safetensors", 1,
       r"Error while deserializing header|SafetensorError|HeaderTooLarge|header too large"
       # (safetensors' InvalidHeader* errors; an HTTP client's InvalidHeaderValue/Name is a request's header)
       r"|MetadataIncompleteBuffer|incomplete metadata|InvalidHeader(?!Value|Name)",
       default_phase="load")
def _corrupt_safetensors(hit: _Hit) -> Finding:
    text = hit.line.message
    if re.search(r"too ?large", text, re.IGNORECASE):
        why = ("the header length is absurd: the file is usually a git-lfs pointer (a small text file), "
               "not the weights")
    elif re.search(r"incomplete|not fully covered", text, re.IGNORECASE):
        why = "the file is shorter than its header says: a truncated (partial) download"
    else:
        why = "the header is not valid JSON: the file is corrupt"
    return Finding(
        cause=f"A .safetensors file is not a valid checkpoint: {why}.",
        steps=[
            "Re-download the affected file(s) with huggingface_hub / hf download (not a plain git clone "
            "without git-lfs) and check each sha256 against the hub's LFS listing before starting vLLM",
        ])


_row("corrupt_pickle_checkpoint", 1,
     r"PytorchStreamReader failed|failed finding central directory|invalid load key|Ran out of input",
     default_phase="load",
     cause='A .bin/.pt checkpoint file is truncated or corrupt (torch.load could not read it).',
     steps=[
           'Re-download the file and verify its sha256; prefer the safetensors files when the repo has them'])


_WEIGHT_KEY = r"'[\w.]*(?:layers?|weight|bias|experts?|embed\w*|lm_head|self_attn|mlp|language_model)[\w.]*'"
# The same KeyError under a lookup of the forward context's attention metadata by layer ("attn_metadata[self.prefix]",
# "forward_context[layer_name]"): the key is a layer's attention module, not a checkpoint tensor. The runner built no
# metadata for that layer, a vLLM bug for the model's mix of attention kinds (vllm#53584: Kimi K3's KDA and MLA layers
# in the profile's dummy run, the first forward). Tensor-parallel workers interleave the traceback, so the lookup
# may be in another worker's lines. A bare KeyError line stays a weight name.
_row("attention_metadata_missing", 1, r"KeyError: '[\w.]*layers\.\d+\.\w*attn\w*(?:\.attn)?'",
     context=r"attn_metadata\w*\[|forward_context\[", context_any_process=True,
     cls="unknown", default_phase="startup",
     cause="The forward pass found no attention metadata for one of the model's layers: vLLM's model runner did "
           "not build it for that layer's attention kind (a vLLM bug for this architecture, not the weights).",
     steps=["Check the vLLM release notes and tracker for the model's architecture and upgrade to a release with the "
            "fix; do not re-download the weights for this error",
            "Run with VLLM_LOGGING_LEVEL=DEBUG to see which attention backend and KV cache group each layer got"])
# The same KeyError naming bitsandbytes' 8-bit state ("'layers.23.mlp.down_proj.SCB'", its row scales): vLLM's
# bitsandbytes loader does not take this prequantized 8-bit checkpoint. (A 4-bit checkpoint's ".absmax" stays a
# weight-name mismatch: the threads read it both ways.)
_BNB_8BIT_STATE_KEY = r"'[\w.]*\.(?:SCB|CB|weight_format)'"
_row("bitsandbytes_8bit_state_not_loaded", 0, rf"KeyError: {_BNB_8BIT_STATE_KEY}|^{_BNB_8BIT_STATE_KEY}$",
     cls="quantization_unsupported", default_phase="load",
     cause="vLLM's bitsandbytes loader found an 8-bit quantization-state tensor (SCB, the row scales) it has no place "
           "for: this vLLM release does not load this prequantized 8-bit bitsandbytes checkpoint for this model.",
     steps=["Serve the unquantized checkpoint with --quantization bitsandbytes (vLLM quantizes it as it loads), or a "
            "checkpoint in a format this release loads for the model (AWQ, GPTQ, FP8)",
            "Or upgrade vLLM to a release whose bitsandbytes loader supports 8-bit prequantized checkpoints"])
# A fused-MoE layer with no parameter for a block-FP8 checkpoint's scales ("experts.w2_weight_scale_inv", DeepSeek's
# format): the MoE quantization method this platform or release picked does not take block-wise FP8 (Ascend, XPU).
_MOE_BLOCK_FP8_SCALE_KEY = r"'[\w.]*experts\.w\d+_weight_scale_inv'"
_row("moe_block_fp8_scales_not_taken", 0, rf"KeyError: {_MOE_BLOCK_FP8_SCALE_KEY}|^{_MOE_BLOCK_FP8_SCALE_KEY}$",
     cls="quantization_unsupported", default_phase="load",
     cause="The MoE layers have no parameter for the checkpoint's block-wise FP8 scales (weight_scale_inv): the "
           "fused-MoE quantization method this platform or vLLM release uses does not load block-FP8 experts.",
     steps=["Serve a checkpoint in a quantization this platform's MoE kernels take (its platform plugin lists them), "
            "or a vLLM release or platform plugin with block-FP8 MoE support"])
# logger.exception() logs a KeyError as its bare key: "ERROR ... 'layers.0.mlp.down_proj.weight.absmax'".
_row("weight_name_mismatch", 1, rf"KeyError: {_WEIGHT_KEY}|^{_WEIGHT_KEY}$",
     default_phase="load",
     cause="vLLM's model code has no parameter for a checkpoint tensor name: the checkpoint layout and this "
           'vLLM release disagree (a loader bug or a checkpoint for another version).',
     steps=[
           "Serve the vLLM release the model's recipe names, or upgrade vLLM to one with the loader fix",
           'Check that config.json matches the weights (same model, same quantization format)'])

# A weight routed to a parameter vLLM's model code did not make for loading ("'Parameter' object has no attribute
# 'weight_loader'"): the tensor's name or shape maps where this release's layout has no loader (MoE experts pushed
# by an RL framework's weight update, a checkpoint for another layout).
_row("weight_loader_missing", 1, r"object has no attribute 'weight_loader'",
     cls="weights_mismatch", default_phase="load",
     cause="A weight was routed to a parameter of vLLM's model that has no weight loader: the tensor names or layout "
           "given (a checkpoint, or weights pushed by an RL framework) do not match what this vLLM release builds.",
     steps=["Compare the tensor names and shapes loaded with the model's parameters (the frame above names the "
            "model's load_weights); use the vLLM release the checkpoint or framework was written for"])


# A model's weight loader finding tensors its config says the model does not have (EAGLE's "Found bias in the loaded
# weights but the model config doesn't have bias"): the checkpoint and its config.json disagree.
_row("weights_beyond_config", 1, r"Found \w+ in the loaded weights but the model config doesn't have",
     cls="weights_mismatch", default_phase="load",
     cause="The checkpoint holds tensors its config.json says the model does not have (a bias, a head): the weights "
           "and the config come from different models or conversions.",
     steps=["Use the config.json published with these weights (or the weights its config describes); for a draft "
            "or speculative head, the head converted for this vLLM release"])
# AutoWeightsLoader: "There is no module or parameter named 'lm_head.weight_packed' in Qwen2ForCausalLM". A name whose
# last part is a quantized tensor's (packed weights, scales, zero points, group indices) is a quantization format that
# vLLM's model code does not apply to that layer; any other name is a layout this release does not know.
_QUANTIZED_TENSOR = (r"(?:weight_packed|qweight|qzeros|scales|g_idx|weight_scale\w*|input_scale|weight_zero_point"
                     r"|absmax)")
_row("quantized_tensor_not_in_model", 1, rf"There is no module or parameter named '[\w.]*\.{_QUANTIZED_TENSOR}' in \w+",
     cls="quantization_unsupported", default_phase="load",
     cause="The checkpoint holds a quantized tensor for a layer that vLLM's model code loads unquantized: this "
           "vLLM release does not apply the checkpoint's quantization to that layer (often lm_head, an "
           "embedding or a vision tower).",
     steps=["Requantize leaving that layer unquantized (e.g. llm-compressor's ignore=['lm_head'])",
            "Or serve a vLLM release whose model code quantizes that layer for this format"])
_row("weight_name_not_in_model", 1, rf"There is no module or parameter named '(?![\w.]*\.{_QUANTIZED_TENSOR}')",
     cls="weights_mismatch", default_phase="load",
     cause="The checkpoint holds a tensor name vLLM's model code has no parameter for: the checkpoint layout "
           "and this vLLM release disagree (a checkpoint for another architecture or version, or a loader bug).",
     steps=["Check that config.json's architectures and the weights come from the same model and export",
            "Serve the vLLM release the model's recipe names, or upgrade to one whose loader knows the name"])


_row("weight_shape_mismatch", 1,
     r"size mismatch for|[Ss]hape mismatch|Attempted to load weight \(torch\.Size|param_data\.shape == "
     r"loaded_weight\.shape|loaded_weight\.shape"
     # (a tensor-parallel loader narrowing a tensor to its rank's slice, past the tensor's size)
     r"|start \(\d+\) \+ length \(\d+\) exceeds dimension size",
     default_phase="load",
     cause='A checkpoint tensor has a different shape than the model config implies: config.json and the '
           'weights do not belong together (or the quantization format is not the one declared).',
     steps=[
           'Use the config.json shipped with these weights; check quantization_config against the files',
           'Otherwise use a vLLM release that supports this checkpoint layout'])


# torch refusing to copy a checkpoint tensor into a parameter of another size, raised inside a weight loader.
_row("weight_copy_size_mismatch", 1,
     r"The size of tensor a \(\d+\) must match the size of tensor b \(\d+\)",
     context=r"\bload_weights\b|weight_loader|param_data\.copy_|load_model\b",
     cls="weights_mismatch", default_phase="load",
     cause="A checkpoint tensor could not be copied into its parameter: their sizes differ (a checkpoint saved for "
           "another tensor-parallel size or quantization, or config.json and the weights do not belong together).",
     steps=["Load the checkpoint with the parallel layout and quantization it was saved for (a sharded_state "
            "checkpoint is tied to its tensor-parallel size), or re-export it for this one",
            "Check config.json and quantization_config against the weight files"])
# MLX's strict load_weights (the vllm-mlx stack): names in the checkpoint that the model class does not have, or the
# reverse; a quantized checkpoint's scales and biases for layers the installed model code does not quantize
_row("mlx_parameters_not_in_model", 1, r"(?:Received|Missing) \d+ parameters (?:not in model)?:",
     cls="weights_mismatch", default_phase="load",
     cause="MLX refused the checkpoint: it holds parameters the model class does not have, or lacks ones it needs "
           "(a checkpoint converted by a newer mlx-lm or mlx-vlm, or for another variant of the architecture).",
     steps=["Upgrade mlx-lm / mlx-vlm (and the vllm-mlx release) to the version the checkpoint was converted with, "
            "or use a conversion made for the installed release"])
# A KV connector's required key missing from --kv-transfer-config (keys are renamed across releases: the offloading
# connector's num_cpu_blocks became cpu_bytes_to_use)
_row("kv_connector_option_missing", 1, r"(\w+) must be specified in kv_connector_extra_config",
     cls="config_invalid", default_phase="load",
     cause="The KV connector needs an option in kv_connector_extra_config that --kv-transfer-config does not set "
           "(the option may have been renamed in this vLLM release).",
     steps=["Add the key the message names to kv_connector_extra_config in --kv-transfer-config, with the name this "
            "vLLM release uses (check the connector's documentation for the release)"])
# transformers' message for a config.json it cannot parse (an empty or truncated file in the model's snapshot)
_row("config_file_not_json", 1, r"It looks like the config file at '[^']*' is not a valid JSON file",
     cls="config_invalid", default_phase="load",
     cause="The model's config.json is not valid JSON (empty or truncated: a broken upload or an interrupted "
           "download).",
     steps=["Re-download the snapshot (or that file) and check its size and sha256 against the hub; if the "
            "repository's own file is empty, take config.json from the model's original repository"])


# A prebuilt binary (a kernel library's AOT build, a wheel's extension) linked against a newer C library than the image
# has: "OSError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found (required by .../flashinfer/...)".
_row("system_library_too_old", 1, r"version .(?:GLIBC|GLIBCXX|CXXABI)_[\d.]+' not found",
     cls="dependency_error", default_phase="load",
     cause="A prebuilt library needs a newer C or C++ runtime (glibc/libstdc++) than the image or host has: the "
           "package was built for a newer distribution.",
     steps=["Run on an image whose distribution is as new as the package needs (vLLM's own image), or install a "
            "build of that package made for this distribution", "Check `ldd --version` against the version named"])
# OpenShift runs containers as an arbitrary UID with no passwd entry; torch's cache-dir lookup asks for the user name.
# The shell (a container's entrypoint, a unit's ExecStart) cannot run the `vllm` command at all: not installed in
# the environment on PATH, a file this user may not execute ("/bin/sh: 1: vllm: Permission denied" on OpenShift), or
# a script whose interpreter is gone ("bash: /opt/venv/bin/vllm: /opt/venv/bin/python3: bad interpreter").
_row("vllm_command_not_runnable", 1,
     r"^(?:/\S*/)?(?:ba|da|z)?sh: (?:\d+: |line \d+: )?(?:\S*/)?vllm: (?:command not found|not found|Permission denied"
     r"|\S+: bad interpreter)"
     r"|exec: \"?(?:\S*/)?vllm\"?: (?:executable file not found in \$PATH|permission denied)",
     cls="dependency_error", default_phase="load",
     cause="The shell could not run the `vllm` command: it is not installed in the environment on PATH, this user "
           "may not execute it (an image run under another UID), or the Python its script names is missing.",
     steps=["Run the command the way the service does (same user, same PATH) and check `command -v vllm`; install "
            "vLLM in that environment or call its full path, and make it executable for the container's user"])


_row("container_user_unknown", 1, r"getpwuid\(\): uid not found",
     cls="dependency_error", default_phase="load",
     cause="The container runs as a user ID with no entry in /etc/passwd (OpenShift's arbitrary UID), and torch "
           "(its inductor cache directory) asks for the user's name.",
     steps=["Set USER and HOME (and TORCHINDUCTOR_CACHE_DIR, HF_HOME) to writable paths in the container's "
            "environment, or give the UID a passwd entry (nss_wrapper, a group-writable /etc/passwd)"])


# ----- load: tokenizer -------------------------------------------------------------------------

_row("tokenizer_file_invalid", 1, r"JSONDecodeError|Expecting value|Unterminated string|Expecting ',' delimiter",
     default_phase="load", context=r"tokeni[sz]",
     cause='The tokenizer files (tokenizer.json / tokenizer_config.json) are not valid JSON: truncated or '
           'corrupt.',
     steps=[
           'Re-download the tokenizer files and verify their sha256; check that --tokenizer points at the '
           "model's own tokenizer"])


_row("tokenizer_load_failed", 1,
     r"data did not match any variant of untagged enum|Can't load tokenizer|Couldn't instantiate the backend "
     r"tokenizer|Tokenizer class \w+ does not exist|Unable to load vocabulary|Error loading tokenizer"
     r"|Failed to load (?:the )?tokenizer|No tokenizer file found"
     # transformers building a fast tokenizer from a checkpoint that has neither tokenizer.json nor a slow one
     r"|Converting from SentencePiece and Tiktoken failed",
     default_phase="load",
     cause='The tokenizer could not be loaded: missing or corrupt tokenizer files, a tokenizer format newer '
           'than the installed tokenizers/transformers, or a tokenizer that needs remote code.',
     steps=[
           'Check the tokenizer files against the hub (sha256) and --tokenizer / --tokenizer-mode',
           'If the format is newer, upgrade transformers/tokenizers in the vLLM venv; if it is custom code, '
           'add --trust-remote-code'])


# transformers 5 dropped the tokenizers' all_special_tokens_extended, which vLLM's tokenizer cache read until its
# releases for transformers 5: a vLLM older than the installed transformers fails on it as it loads the tokenizer.
_row("tokenizer_api_removed_by_transformers", 1, r"has no attribute '?all_special_tokens_extended\b",
     cls="dependency_error", default_phase="load",
     cause="The tokenizer has no all_special_tokens_extended, which transformers 5 removed: this vLLM release was "
           "built for transformers 4 and the environment holds transformers 5.",
     steps=["Install the transformers release this vLLM pins (pip install 'transformers<5'), or upgrade vLLM to a "
            "release made for transformers 5"])


# A tokenizer object without an attribute its caller asks for: the tokenizer is of another kind than the code
# expects (Mistral's own, a cached or wrapped one, a slow one where a fast one's vocabulary is read), which names the
# part more closely than two packages' releases would.
_row("tokenizer_attribute_missing", 2,
     r"AttributeError[:(]\s*'?(?:\w+\.)*\w*Tokenizer\w*'? (?:object )?has no attribute",
     cls="tokenizer_error", default_phase="load",
     cause="The tokenizer lacks an attribute its caller needs: a tokenizer of another kind than vLLM, the structured "
           "output backend or the integration supports (Mistral's own tokenizer, a cached or wrapped one).",
     steps=["Read the frame that asked for the attribute; use the tokenizer mode the model ships for "
            "(--tokenizer-mode auto or mistral) with a structured-output backend or integration release that "
            "supports that tokenizer"])


# Code asking a tokenizer that is None for a token's id or text: no tokenizer was loaded (skip_tokenizer_init, a
# processor built before or without one), so the first call on it fails.
_row("tokenizer_not_loaded", 2,
     r"'NoneType' object has no attribute '(?:convert_tokens_to_ids|convert_ids_to_tokens|encode|decode"
     r"|apply_chat_template|eos_token_id|pad_token_id|all_special_ids)'",
     cls="tokenizer_error", default_phase="load",
     cause="Code called a tokenizer method on None: no tokenizer was loaded (skip_tokenizer_init, or a processor "
           "built without one) where one is needed.",
     steps=["Start without --skip-tokenizer-init when the model's processor or the requests need a tokenizer (a "
            "multimodal model's processor does), or pass --tokenizer where the model's files hold none"])


# vLLM registers its own config class for a model type transformers did not have; a newer transformers that has the
# type returns its own class instead ("Expected type: <class 'vllm.transformers_utils.configs....'> but found type:
# <class 'transformers.models....'>"), and vLLM refuses it.
_row("hf_config_class_mismatch", 2, r"Expected type: <class 'vllm\.transformers_utils\.configs\.[\w.]+'>",
     cls="dependency_error", default_phase="load",
     cause="The installed transformers returned its own config class for the model where vLLM expects the one it "
           "bundles: transformers is newer (or older) than this vLLM release supports for that model.",
     steps=["Install the transformers version the vLLM release pins (pip install 'transformers<X' as its "
            "requirements say), or a vLLM release made for the installed transformers"])


# A pooling task asked of an architecture vLLM registers as neither generative nor pooling ("The model should be a
# generative or pooling model when task is set to 'embedding'. Found: {'architectures': ['ModernBertModel'], ...}"): a
# bare encoder without a head vLLM can pool with.
_row("task_unsupported_by_architecture", 1, r"The model should be a generative or pooling model when task is",
     cls="config_invalid", default_phase="load",
     cause="The task asked for (embedding, classify, score) needs a model vLLM can generate or pool with, and this "
           "architecture is registered as neither (a bare encoder checkpoint).",
     steps=["Serve a checkpoint with a pooling head vLLM supports for the task, or a release that adapts this "
            "architecture to it (--runner pooling with --convert embed)"])


# --tool-call-parser / --reasoning-parser names a parser this release does not register (it lists the ones it has).
_row("parser_name_unknown", 1, r"invalid (?:tool call|reasoning) parser: \S+ \(chose from",
     cls="config_invalid", default_phase="load",
     cause="The tool-call or reasoning parser named on the command line is not one this vLLM release has (the "
           "message lists those it has).",
     steps=["Pick a parser from the list the message gives, or upgrade to the release the model's recipe names for "
            "its parser"])


# A draft model whose vocabulary differs from the target's: V1 refuses it as the proposer is built, before the weights
# load ("Target and draft model should have the same vocabulary size."); V0's spec-decode worker asserted it once both
# models had loaded, its source line the only text in the traceback.
_DRAFT_VOCAB_CAUSE = ("The speculative draft model's vocabulary size differs from the target model's: the two use "
                      "different tokenizers, so draft tokens cannot be checked against the target.")
_DRAFT_VOCAB_STEPS = ["Use a draft model trained with the target's tokenizer (same vocab_size in both config.json "
                      "files), or a method without a separate draft model (ngram, or the target's own MTP/EAGLE "
                      "head)"]
_row("draft_vocab_size_mismatch", 1, r"Target and draft model should have the same vocabulary size",
     cls="config_invalid", default_phase="load", cause=_DRAFT_VOCAB_CAUSE, steps=_DRAFT_VOCAB_STEPS)
_row("draft_vocab_size_assertion", 1, r"^(?:\w+\.)*AssertionError\s*$",
     context=r"assert all\(vocab_sizes\[0\] == vocab_size for vocab_size in vocab_sizes\)",
     cls="config_invalid", default_phase="startup", cause=_DRAFT_VOCAB_CAUSE, steps=_DRAFT_VOCAB_STEPS)


# Two compiled extensions defining one operator namespace (vLLM built for another device beside a platform plugin's
# kernels, two vLLM builds on one path): torch refuses the second registration as the process imports it.
_row("operator_namespace_registered_twice", 1, r"Only a single TORCH_LIBRARY can be used to register the namespace",
     cls="dependency_error", default_phase="load",
     cause="Two installed packages' compiled extensions define the same torch operator namespace (the message names "
           "both files): vLLM built for another device beside a platform plugin, or two builds of one package.",
     steps=["Install the vLLM build the plugin names (for vllm-ascend, vLLM built with VLLM_TARGET_DEVICE=empty) in "
            "a clean venv, so only one package registers the namespace"])


# A config.json with no model_type (vllm-omni: "config.json found but missing 'model_type'"; transformers:
# "Unrecognized model in <dir>. Should have a `model_type` key in its config.json"): the directory is not a
# transformers-format checkpoint, or its conversion left the key out, so nothing can pick the model's class.
_row("config_model_type_missing", 1,
     r"config\.json found but missing 'model_type'|Should have a `model_type` key in its config\.json",
     cls="config_invalid", default_phase="load",
     cause="The model directory's config.json has no model_type, so neither vLLM nor transformers can tell which "
           "model it is: the path is not a transformers-format checkpoint, or a conversion left the key out.",
     steps=["Point the model path at the directory holding the checkpoint's own config.json (the published one), or "
            "add the model_type the model's card names"])
# torch's MemPool (vLLM's sleep mode allocates the weights and KV cache in one) refuses the caching allocator's
# expandable segments: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True and sleep mode cannot be used together.
_row("mempool_with_expandable_segments", 1, r"MemPool doesn't currently support expandable_segments",
     cls="config_invalid", default_phase="load",
     cause="PYTORCH_CUDA_ALLOC_CONF sets expandable_segments:True, which torch's MemPool (used by vLLM's sleep mode "
           "to allocate weights and KV cache) does not support.",
     steps=["Unset expandable_segments in PYTORCH_CUDA_ALLOC_CONF for the vLLM process (a trainer may set it for "
            "its own process), or start the engine without sleep mode (enable_sleep_mode=False)"])


# transformers' table of model types without the checkpoint's ("KeyError: 'dbrx'" under CONFIG_MAPPING, or its
# _LazyConfigMapping in a notebook's traceback; a pasted traceback may indent the line): the installed transformers
# predates the model, whatever vLLM release reads it.
_row("transformers_model_type_unknown", 1, r"^\s*(?:\w+\.)*KeyError: '[\w.-]+'",
     context=r"CONFIG_MAPPING\[|_LazyConfigMapping\b",
     cls="dependency_error", default_phase="load",
     cause="The installed transformers does not know the checkpoint's model type (config.json's model_type, named in "
           "the KeyError): it is older than the model, or the model's code ships with the checkpoint.",
     steps=["Install the transformers release the model card names (with the vLLM release built for it); a model "
            "whose code ships in its repository needs --trust-remote-code"])


# ----- load: configuration ---------------------------------------------------------------------

# A hybrid model's KV cache groups must share one page size; a layer whose page the others' does not divide, under an
# attention backend that cannot pad it, stops the KV cache's sizing.
# A linear layer's quantization method without weight_loader_v2 (a new format, a platform plugin's linear method) falls
# back to the old loader, which cannot take the fused multi-index shards some models' checkpoints hold.
_row("weight_loader_v2_required", 1,
     r"Shard id with multiple indices is not supported in weight_loader, please use weight_loader_v2",
     cls="quantization_unsupported", default_phase="load",
     cause="The linear layers' quantization method (or the platform plugin's linear method) has only vLLM's old weight "
           "loader, which cannot load the fused multi-index shards this model's checkpoint holds.",
     steps=["Serve with a vLLM (and platform plugin) release whose quantization method supports weight_loader_v2 for "
            "this model, or a checkpoint in a quantization format the model's recipe names"])
_KV_PAGE_SIZE_CAUSE = ("The model's attention layers (a draft model's included) need KV pages of sizes vLLM cannot "
                       "bring to one, and the attention backend in use cannot pad them.")
_KV_PAGE_SIZE_STEPS = ["Set --block-size (or the mamba/linear-attention block size) so the layers' page sizes divide, "
                       "or pick an attention backend that pads KV pages; the model's recipe names the block size it "
                       "was tested with"]
_row("kv_page_size_not_unifiable", 1, r"page size is not divisible by the maximum page size",
     cls="config_invalid", default_phase="startup", cause=_KV_PAGE_SIZE_CAUSE, steps=_KV_PAGE_SIZE_STEPS)
# Releases that assert the unified page size instead of explaining it: a bare AssertionError under the frame that
# unifies the KV specs' page sizes.
_row("kv_page_size_not_unified_assert", 1, r"^(?:\w+\.)*AssertionError\s*$",
     context=r"assert new_spec\.page_size_bytes == max_page_size|in unify_kv_cache_spec_page_size",
     cls="config_invalid", default_phase="startup", cause=_KV_PAGE_SIZE_CAUSE, steps=_KV_PAGE_SIZE_STEPS)
# An attention backend named by VLLM_ATTENTION_BACKEND or --attention-backend that this vLLM's registry does not have
# (a platform plugin's name given to a vLLM without that plugin, a name from another release): refused as the
# configuration is read, with the valid names listed.
_row("attention_backend_name_unknown", 1, r"Unknown attention backend: '?\w+'?\. Valid options are",
     cls="attention_backend_unsupported", default_phase="load",
     cause="The attention backend named (VLLM_ATTENTION_BACKEND or --attention-backend) is not one this vLLM knows: a "
           "platform plugin's backend given to a vLLM where that plugin is not active, or a name from another release.",
     steps=["Unset VLLM_ATTENTION_BACKEND to let vLLM choose, or pick one of the names the message lists; for a "
            "platform plugin's backend, check that the plugin is installed and activated (its 'Platform plugin ... is "
            "activated' line)"])
# xgrammar's CPU kernel applies a grammar's token mask to float32 logits only: a model served in half precision on
# a platform without its GPU kernel fails the first request that asks for structured output.
_row("grammar_mask_needs_float32_logits", 1, r"ValueError: logits must be of type float32",
     cls="dtype_unsupported", default_phase="runtime",
     cause="xgrammar's CPU kernel applies the structured-output token mask to float32 logits only, and this model's "
           "logits are in half precision on a platform without xgrammar's GPU kernel.",
     steps=["Serve with --dtype float32 on this platform, or use another structured-output backend; a newer vLLM and "
            "xgrammar may handle half-precision logits there"])
# The Ascend driver's management interface (DCMI) cannot start inside the container: the NPU devices or the driver's
# files are not mounted (-8005), or another process or container holds the device (-8020).
_row("npu_management_interface_unavailable", 1, r"dcmi mod(?:el|ule) initiali[sz]ed? failed",
     cls="driver_or_runtime", default_phase="startup",
     cause="The Ascend driver's management interface (DCMI) could not initialise here: the NPU devices or the driver's "
           "files are not in this container, or another process or container holds the device (ret -8020).",
     steps=["Start the container with the Ascend devices and driver mounts vllm-ascend documents (/dev/davinciN, "
            "/dev/davinci_manager, /dev/devmm_svm, /dev/hisi_hdc, /usr/local/dcmi, /usr/local/bin/npu-smi, "
            "/usr/local/Ascend/driver), and check with `npu-smi info` on the host that no other process holds "
            "the card"])
# A hybrid model (attention beside Mamba or sliding-window layers) needs the hybrid KV cache manager; a KV connector or
# offloading that turns it off leaves KV specs that cannot be one type, and the KV cache cannot be sized.
_row("hybrid_kv_manager_disabled", 1,
     r"Hybrid KV cache manager is disabled but failed to convert the KV cache specs to one unified type",
     cls="config_invalid", default_phase="startup",
     cause="The hybrid KV cache manager is off (a KV connector or KV offloading turns it off, or the flag that "
           "disables it is set), and this hybrid model's layers need KV caches of different kinds, which cannot be "
           "brought to one.",
     steps=["Serve the model without the KV connector or offloading that disables the hybrid manager (or with a "
            "release whose connector supports hybrid models), and leave --disable-hybrid-kv-cache-manager unset"])
# vLLM's maximum-length check assumes a scaled RoPE names its factor; Qwen2-VL's M-RoPE saved by a newer transformers
# ("rope_type": "default" beside mrope_section) reaches that assertion in releases that predate the new form.
_row("rope_scaling_without_factor", 1, r"^(?:\w+\.)*AssertionError\s*$", context=r'assert "factor" in rope_scaling',
     cls="config_invalid", default_phase="load",
     cause="config.json's rope_scaling has no factor where this vLLM release expects one: a config rewritten by a "
           "newer transformers (Qwen2-VL's M-RoPE as rope_type 'default') read by an older vLLM.",
     steps=["Upgrade vLLM to a release that reads this config form, or restore the model's published config.json "
            "(rope_scaling with its original type and mrope_section)"])


@_rule("max_model_len_over_model_limit", 1,
       r"max_model_len \((\d+)\) is greater than the derived max_model_len \((\w+)=(\d+)",
       default_phase="load")
def _max_len_over_limit(hit: _Hit) -> Finding:
    requested, key, limit = hit.match.group(1), hit.match.group(2), int(hit.match.group(3))
    return Finding(
        cause=f"max_model_len {requested} is longer than the model supports ({key}={limit} in config.json).",
        steps=[f"Lower max_model_len from {requested} to {limit} (or less)",
               "Only for a RoPE-scaled model documented to extend further: set rope scaling in hf_overrides; "
               "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 risks NaNs and out-of-bounds errors"],
        parameter_changes={"max_model_len": limit})


@_rule("quantization_mismatch", 1,
       r"Quantization method specified in the model config \((\w+)\) does not match",
       default_phase="load")
def _quantization_mismatch(hit: _Hit) -> Finding:
    return Finding(
        cause=f"--quantization disagrees with the checkpoint's quantization_config ({hit.match.group(1)}).",
        steps=["Drop --quantization (vLLM reads the method from config.json), or pass exactly the method the "
               "checkpoint declares"])


# A quantization method's kernels refusing the model's dtype ("torch.bfloat16 is not supported for quantization method
# awq. Supported dtypes: [torch.float16]"): the checkpoint and the GPU are fine, the dtype is not (vLLM takes
# config.json's bfloat16, or the CPU backend casts float16 to it). Ahead of the quantization rows, which match it too.
_row("quantization_dtype_unsupported", 1, r"torch\.\w+ is not supported for quantization method \w+",
     cls="dtype_unsupported", default_phase="load",
     cause="The quantization method's kernels do not take the model's dtype (the message lists the ones they take).",
     steps=["Start with --dtype half (or the dtype the message lists); on the CPU backend, which runs bfloat16 only, "
            "serve a checkpoint whose quantization supports it or an unquantized one"], changes={"dtype": "half"})


@_rule("quantization_unsupported_on_gpu", 1,
       r"not supported for the current GPU|Min(?:imum)? capability: \d+|is not supported for quantization"
       r"|Quantization scheme is not supported"
       r"|Unknown quantization method|quantization method .{0,60} is not supported"
       # the platform's own refusal ("fp8 quantization is currently not supported in tpu.")
       r"|quantization is currently not supported in \w+"
       # compressed-tensors finds no kernel scheme for the checkpoint's weights/activations on this GPU and build
       r"|No compressed-tensors compatible scheme was found"
       # no fused-MoE kernel of this build takes the experts' format (MXFP4, NVFP4, ...) on this GPU and layout
       r"|No \w+ MoE backend supports the deployment configuration",
       default_phase="load")
def _quantization_gpu(hit: _Hit) -> Finding:
    needs = re.search(r"Minimum capability: (\d+)\. Current capability: (\d+)", hit.line.message)
    detail = (f" (needs compute capability {int(needs.group(1)) / 10:g}, this GPU has "
              f"{int(needs.group(2)) / 10:g})") if needs else ""
    return Finding(
        cause=f"The checkpoint's quantization format is not supported on this GPU or vLLM build{detail}.",
        steps=["Use a checkpoint in a format this GPU supports (e.g. another quantization or bf16/fp16)",
               "Or run on GPUs with the required compute capability"])


# Block-wise FP8 quantizes activations in groups (128 wide); a layer whose width is not a multiple of the group (a
# vision tower's MLP of 3420) cannot be quantized that way ("the last dimension of `x` 3420 must be divisible by
# `group_size` 128").
_row("quantization_group_size_not_dividing", 1, r"must be divisible by `?group_size`? \d+",
     cls="quantization_unsupported", default_phase="load",
     cause="The block-wise quantization splits a layer into groups of a fixed width and this layer's width is not a "
           "multiple of it: the checkpoint (or --quantization fp8 on the fly) covers a layer the method cannot take.",
     steps=["Keep the layers whose width is not a multiple of the group unquantized (the quantizer's ignore list, "
            "e.g. the vision tower), or use a per-tensor or per-channel scheme for the model"])


# vLLM's bitsandbytes loader needs the model's packed_modules_mapping to quantize its fused layers.
_row("bitsandbytes_unsupported_for_model", 1, r"does not support BitsAndBytes quantization",
     cls="quantization_unsupported", default_phase="load",
     cause="This vLLM release cannot load the model with bitsandbytes (in-flight or a bnb checkpoint): its model "
           "code has no mapping of the fused layers that bitsandbytes quantizes.",
     steps=["Serve the model unquantized, or with a quantization its model code supports (a GPTQ/AWQ/FP8 "
            "checkpoint)", "Or upgrade to a vLLM release whose model code lists bitsandbytes for it"])


# Punica's LoRA kernels are built for a list of hidden sizes; a model whose size is not on it has no kernel.
_row("lora_kernel_shape_unsupported", 1, r"No suitable kernel\. h_in=\d+ h_out=\d+",
     cls="architecture_unsupported", default_phase="load",
     cause="vLLM's LoRA kernels (punica) have no kernel for this model's layer sizes with this adapter rank.",
     steps=["Serve the model without LoRA or merge the adapter into the weights",
            "Or upgrade to a vLLM release whose LoRA kernels cover the model's hidden sizes"])


# 0.5's and 0.6's CPU backend meeting a MoE layer on the first forward pass ("NotImplementedError('The CPU backend
# currently does not support MoE.')"): the platform cannot run this model class.
_row("platform_moe_unsupported", 1, r"\bThe \w+ backend currently does not support MoE\b",
     cls="architecture_unsupported", default_phase="runtime",
     cause="This vLLM's backend for the platform (the message names it) has no mixture-of-experts layer, so a MoE "
           "model fails on its first forward pass.",
     steps=["Serve the model on a platform whose vLLM backend runs MoE layers (CUDA, ROCm), or a dense model here",
            "Or upgrade to a vLLM release whose backend for this platform supports MoE (the CPU backend does since "
            "0.7)"])


# vLLM refusing LoRA for a model class whose code has no LoRA support ("Qwen3ASRForConditionalGeneration does not
# support LoRA yet.")
# (0.3 and 0.4: "Model QWenLMHeadModel does not support LoRA, but LoRA is enabled.")
_row("lora_unsupported_for_model", 1, r"\bdoes not support LoRA(?: yet\b|, but LoRA is enabled)",
     cls="architecture_unsupported", default_phase="load",
     cause="This vLLM release has no LoRA support for the model's architecture, so it cannot start with --enable-lora.",
     steps=["Serve the model without --enable-lora, or merge the adapter into the weights and serve the merged model",
            "Or upgrade to a vLLM release whose model code supports LoRA for it"])


_row("kv_cache_dtype_invalid", 1, r"Invalid kv_cache_dtype: \S+|Unknown kv cache dtype: \S+",
     cls="dtype_unsupported", default_phase="load",
     cause="The KV cache dtype asked for is not one this vLLM build and platform support (the message lists the "
           "valid ones).",
     steps=["Start with --kv-cache-dtype auto (the model's dtype), or one of the values the message lists"],
     changes={"kv_cache_dtype": "auto"})


_row("dtype_unsupported_on_gpu", 1, r"Bfloat16 is only supported on GPUs", default_phase="load",
     cause="The GPU cannot run bfloat16 (compute capability below 8.0).",
     steps=["Start with --dtype half"], changes={"dtype": "half"})
# An Ascend operator (aclnn) refusing a tensor's dtype: "Tensor scale not implemented for DT_FLOAT16, should be in
# dtype support list [...]".
_row("npu_operator_dtype_unsupported", 1, r"not implemented for DT_[A-Z0-9]+\b",
     cls="dtype_unsupported", default_phase="startup",
     cause="An Ascend operator does not support the dtype of one of its tensors (the message names the tensor, the "
           "dtype and the list it supports): the model's dtype or the quantization's scales do not fit the kernel.",
     steps=["Start with the dtype the operator supports (--dtype bfloat16 for most W8A8 kernels), or use the "
            "quantized checkpoint the vllm-ascend release documents for this model"])

# Triton's compiler stopping in one of its MLIR passes while building a kernel (a fused MoE config tried by
# benchmark_moe's tuning, a kernel on a new GPU): "error: Failures have been detected while processing an MLIR pass
# pipeline", "note: Pipeline failed while executing [`TritonGPURemoveLayoutConversions` ...]".
_row("triton_mlir_pass_failed", 1, r"Failures have been detected while processing an MLIR pass pipeline"
     r"|PassManager::run failed|Pipeline failed while executing \[`Triton",
     cls="compile_error", default_phase="startup",
     cause="Triton's compiler failed in one of its passes while compiling a kernel: the kernel's configuration (block "
           "sizes, warps, stages) or the Triton version does not work for this GPU.",
     steps=["Retry with the Triton version vLLM's release pins; if a tuned kernel config (a fused MoE JSON) was "
            "just added, remove or retune it; --enforce-eager rules out the torch.compile-generated kernels"])
# FlashInfer's kernels carve their scratch space out of a fixed workspace buffer; a batch (CUDA graph capture at
# the largest size, a long prefill) that needs more stops it: "Buffer overflow when allocating memory for
# batch_prefill_tmp_v with size ... but only ... bytes available in AlignedAllocator. Increase the workspace buffer
# size."
_row("flashinfer_workspace_too_small", 1,
     r"Buffer overflow when allocating memory for \w+|Increase the workspace buffer size",
     cls="resource_limit", default_phase="startup",
     cause="FlashInfer's workspace buffer is too small for the batch being run (its largest CUDA graph or prefill): "
           "the kernel needs more scratch space than the buffer vLLM allocated for it.",
     steps=["Lower max_num_seqs / max_num_batched_tokens (or the CUDA graph capture sizes) so the largest batch "
            "fits, or use a vLLM release that sizes the FlashInfer workspace for this model; another attention "
            "backend avoids it"])
# FlashAttention's kernels take half precision (and FP8) only: a model run in float32 reaches them at its first
# forward ("FlashAttention only supports fp16, bf16, and fp8_e4m3 data type").
_row("flash_attention_dtype_unsupported", 1, r"FlashAttention only supports? (?:fp16|half)",
     cls="dtype_unsupported", default_phase="startup",
     cause="FlashAttention was given tensors of a dtype it has no kernels for (float32): the model runs in a dtype "
           "its attention backend does not support.",
     steps=["Start with --dtype bfloat16 (or half), or choose an attention backend that supports float32 "
            "(VLLM_ATTENTION_BACKEND, --attention-backend on newer releases)"])

_row("cli_argument_error", 1,
     r"error: unrecognized arguments|error: argument --[\w-]+|invalid choice:|the following arguments are "
     r"required|ambiguous option"
     # click's usage errors, from a CLI that starts vLLM or its cluster (`ray start`)
     r"|^Error: (?:Missing (?:argument|option)|No such option)\b"
     # ...and the same errors boxed by rich-click or Typer ("│ No such option: --local-model-path   │")
     r"|^│ (?:Missing (?:argument|option)|No such option)\b"
     # `vllm serve --model X`: newer releases take the model as a positional argument only
     r"|you should provide the model as a positional argument",
     default_phase="load",
     cause='vLLM rejected its command line (or the command that starts it did): a flag this release does not '
           'know, a missing one or a bad value.',
     steps=[
           'Fix or drop the flag named in the evidence; check `vllm serve --help` of the installed release '
           '(flags change between releases)'])


# ----- load: hub, disk, python dependencies ----------------------------------------------------

# Disaggregated prefill: a decode instance's connector could not pull a request's KV cache from its prefill peer
# (Mooncake's transfer engine, NIXL's handshake or read): the link between the instances failed while serving.
# (Mooncake's transfer engine logs its own side of it: a peer's segment or target it cannot open or reach, a slice
# that failed)
_row("kv_transfer_failed", 2, r"Mooncake transfer failed for request|Failed to transfer KV cache for request"
     r"|NIXL transfer failure: \w+|Failed to connect to target: \S+, status:"
     r"|Failed to (?:open|connect to) segment \S+|Transfer slice failed with status|Process failed for slice \(opcode",
     cls="distributed_network", default_phase="runtime",
     cause="The KV-transfer connector could not move a request's KV cache between the prefill and decode instances "
           "(the peer did not answer, the connection or the handshake failed), so that request failed while serving.",
     steps=["Check the peer instance is up and reachable on its transfer address and port from this one (both "
            "instances' logs, their side-channel host and port settings), and the RDMA or TCP path between them; "
            "raise the connector's connect timeout only once the path is known good"])
# Mooncake's transfer engine could not bring up an RDMA queue pair to its peer (modify QP to RTR/RTS fails: the NIC,
# GID index, MTU or the peer's LID does not match), so it marks that endpoint inactive and transfers through it fail.
_row("rdma_endpoint_handshake_failed", 2, r"\[Handshake\] Failed to modify QP to RT[RS]",
     cls="distributed_network", default_phase="runtime",
     cause="The KV transfer engine could not connect an RDMA queue pair to its peer (the handshake failed at RTR/RTS): "
           "the NIC named, its GID index, MTU or the peer's address do not match, so transfers over it fail.",
     steps=["Name the RDMA devices both sides use (the transfer engine's device list, e.g. MC_/mooncake config or "
            "the connector's device setting) so they are on the same fabric, and check `ibv_devinfo` (port active, "
            "GID, MTU) on both hosts"])
# UCX, the transport under NIXL's connector, failing to reach its peer or to use the NIC it was given ("sock.c:334
# UCX  ERROR   connect(fd=120, dest_addr=10.244.13.0:34313) failed: Connection refused", "ib_device.c:1332 UCX  ERROR
# ibv_create_ah(...) for UD mlx5 connect on mlx5_0 failed: No such device").
_row("ucx_transport_failed", 2, r"\bUCX\s+ERROR\b.*\bfailed\b",
     cls="distributed_network", default_phase="startup",
     cause="UCX, the transport the KV-transfer connector (NIXL) runs on, could not reach its peer or use the network "
           "device it picked (a refused connection, an RDMA device or address it cannot use).",
     steps=["Check the peer instance is up and its transfer address reachable from this host, and name the devices "
            "UCX may use (UCX_NET_DEVICES, UCX_TLS) so both sides are on the same fabric; `ucx_info -d` and "
            "`ibv_devinfo` show what each host has"])
# ...when the transfer engine says the transfer itself ran out of time (Mooncake: "Sync batch data transfer timeout
# after ...ns"), the link was up and too slow or the peer stopped answering mid-transfer
_row("kv_transfer_timeout", 1, r"Sync batch data transfer timeout after \d+ns",
     cls="timeout", default_phase="runtime", quiet_levels=True,
     cause="The KV-transfer engine timed out moving a request's KV cache between the prefill and decode instances: "
           "the connection was up, but the transfer did not finish in time.",
     steps=["Check the transfer path's bandwidth and errors (RDMA counters, the NICs both instances use) and whether "
            "the peer was stalled at that moment; raise the transfer timeout only once the path is known good"])
# The NIXL KV-transfer connector (disaggregated prefill) could not import the nixl package it needs.
_row("kv_connector_library_missing", 1, r"NIXL is not available",
     cls="dependency_error", default_phase="load",
     cause="The NIXL KV-transfer connector named in --kv-transfer-config could not import the nixl library: it is "
           "not installed in this environment or image (or not built for this platform).",
     steps=["Install NIXL in the serving environment (an image built with it, or `pip install nixl` for this CUDA or "
            "ROCm), or use a KV connector whose library is installed"])
# A Rust-built installer (uv) rejecting an option the install step passes: that uv is older than the option.
_row("installer_option_unknown", 1, r"^error: unexpected argument '--[\w-]+' found",
     cls="dependency_error", default_phase="load",
     cause="The installer rejected an option of the install step (uv's \"unexpected argument\"): the uv on this host "
           "is older than the option (for example --torch-backend), so vLLM was not installed.",
     steps=["Upgrade uv (`pip install -U uv`) or drop the option from the install step, then install again"])
# Python could not parse a file of an installed package: the traceback's deepest frame is under site-packages.
_row("installed_package_unparsable", 1, r"^(?:SyntaxError|IndentationError|TabError): ",
     cls="dependency_error", default_phase="load",
     context=r'(?:site|dist)-packages[^"\n]*", line \d+(?:(?!File ")[\s\S])*\Z',
     cause="Python could not parse a file of an installed package (the traceback's last frame): the package is "
           "broken (a bad build or wheel, an edited file) or written for a newer Python than this environment's.",
     steps=["Reinstall the package the last frame names in this environment (`pip install --force-reinstall "
            "--no-deps <package>`), or install a release built for this platform",
            "Check the environment's Python (`python --version`) against the package's Requires-Python"])

# A local path that does not exist is read as a hub repository id, and the id's validation fails on its slash:
# the model directory is missing on this node (a multi-node deploy that copied it to the head only).
_row("model_path_not_found", 1,
     r"(?:HFValidationError|Repo id must|Invalid repository ID or local directory specified)[^\n]*?: '/[^']*'",
     cls="weights_missing", default_phase="load",
     cause="The model path does not exist on this node, so it was read as a hub repository id (an absolute path "
           "is not a valid id).",
     steps=["Check the path exists on every node that runs a worker (multi-node: the same path on each node), "
            "and that the service user can read it"])
_row("hub_access_failed", 1,
     r"LocalEntryNotFoundError|OfflineModeIsEnabled|Cannot find the requested files in the local cache"
     r"|couldn't connect to .{0,40}hugging ?face|We couldn't connect|RepositoryNotFoundError|Repository Not Found"
     r"|GatedRepoError|Cannot access gated repo|You are trying to access a gated repo"
     r"|Access to model .{0,80} is restricted|401 Client Error"
     r"|403 Client Error|is not a local folder and is not a valid model identifier|HFValidationError"
     r"|Repo id must be in the form|Invalid repository ID or local directory"
     # the hub's host not answering or not resolving (a firewall, no route, no DNS, a proxy; its quotes escaped when
     # requests' error is printed inside another's repr), and ModelScope's hub refusing the repo or revision
     r"|HTTPSConnectionPool\(host=\\?'(?:huggingface\.co|hf-mirror\.com|www\.modelscope\.cn|modelscope\.cn)\\?'"
     r"|modelscope\.hub\.errors\.\w+"
     # the hub answering 404 for the repo, its revision or a file of it (a wrong id or branch, or a local path that
     # does not exist sent to the hub's API as an id)
     r"|404 Client Error: Not Found for url: https://(?:www\.)?(?:huggingface\.co|hf-mirror\.com|modelscope\.cn)/"
     # (or a mirror or proxy set as HF_ENDPOINT: any host, the hub's file and API paths)
     r"|404 Client Error: Not Found for url: https?://\S+/(?:resolve/|api/models/)"
     # the hub rate-limiting its API (many workers resolving the same repo at once, even when the files are cached)
     r"|429 Client Error: Too Many Requests for url: https://(?:huggingface\.co|hf-mirror\.com)/"
     # huggingface_hub's Rust downloader failing (HF_HUB_ENABLE_HF_TRANSFER=1), which hides the hub's own error
     r"|An error occurred while downloading using `hf_transfer`",
     default_phase="load",
     cause='vLLM tried to fetch the model or tokenizer from the hub and could not (offline, no access, a '
           'wrong repo id, or a path that does not exist).',
     steps=[
           "Serve a local, verified model directory (the release's weights path) instead of a hub id",
           'If a download is intended: check HF_TOKEN / gated access and the repo id; with HF_HUB_OFFLINE=1 '
           'every file (incl. tokenizer) must already be in the local cache'])

# huggingface_hub's xet backend (hf_xet) failing to fetch a file's chunks from the hub's content-addressed store
# ("RuntimeError: Data processing error: CAS service error : ReqwestMiddleware Error: Request failed after 5 retries").
_row("hub_xet_download_failed", 1, r"CAS service error|CasObjectError",
     cls="model_download", default_phase="load",
     cause="Downloading the model through the hub's xet storage (hf_xet) failed: its content-addressed store did not "
           "answer, or the connection broke mid-file.",
     steps=["Retry; if it keeps failing, download over plain HTTP with HF_HUB_DISABLE_XET=1, or fetch the model "
            "beforehand (`hf download`) and serve the local directory",
            "Behind a proxy or firewall, allow the xet CAS endpoints as well as the hub's own"])


# A file missing inside the hub's cache (a snapshot fetched in part, or its snapshots and blobs out of step): the
# model's files are not all on this host, whatever loader asked for them.
_row("hub_cache_file_missing", 1, r"No such file or directory: '[^']*/models--[^/']+--[^/']+/(?:blobs|snapshots)/",
     cls="model_download", default_phase="load",
     cause="A file of the model is missing from the Hugging Face cache (the path names it): the snapshot was "
           "downloaded in part, or copied without all of its files.",
     steps=["Fetch the model again into the cache (`hf download <repo>` resumes and fills in missing files) or serve "
            "a verified local directory that holds every file, including the remote-code ones"])

_row("disk_full", 1, r"No space left on device|\[Errno 28\]", default_phase="load",
     cause='A disk filled up (weights, HF cache, /tmp or the compile caches).',
     steps=[
           'Free space or point HF_HOME / VLLM_CACHE_ROOT / TMPDIR at a larger disk, then restart'])


# A Python the code was not written for fails in the language itself, before vLLM's own code runs: 3.8 cannot subscript
# builtin types (`list[int]`, PEP 585); 3.13 gave classes `__firstlineno__`, which older torch's source inspection
# does not expect.
_row("python_version_unsupported", 1,
     r"TypeError: 'type' object is not subscriptable|KeyError: '__firstlineno__'",
     cls="dependency_error", default_phase="load",
     cause="The Python interpreter is not one this vLLM release (or its torch) supports: older than its code's "
           "syntax, or newer than its libraries expect.",
     steps=["Run vLLM in a fresh venv on a Python its release supports (its `requires-python`, e.g. 3.10 to 3.12) "
            "and reinstall vLLM there"])
# huggingface_hub asked (HF_HUB_ENABLE_HF_TRANSFER=1) to download through hf_transfer, which is not installed.
_row("hf_transfer_not_installed", 1, r"'hf_transfer' package is not available",
     cls="dependency_error", default_phase="load",
     cause="HF_HUB_ENABLE_HF_TRANSFER=1 asks huggingface_hub to download through hf_transfer, and the package is not "
           "installed in the environment that downloads the model.",
     steps=["Install hf_transfer into the vLLM venv (pip install hf_transfer), or unset HF_HUB_ENABLE_HF_TRANSFER "
            "(the image or the environment sets it)"])


# A program that runs vLLM (a trainer, a notebook) checking the installed release before it starts.
_row("vllm_release_too_old", 2, r"(?i)please (?:update|upgrade) vllm\b|requires? vllm ?>= ?\d",
     cls="dependency_error", default_phase="load", quiet_levels=True,
     cause="The program that runs vLLM needs a newer vLLM release than the one installed.",
     steps=["Install the vLLM release the program asks for (its requirements pin it), in the venv it runs in"])


# (V0's worker processes report an exception by its message alone: "... while processing method load_model: No module
# named 'einops', Traceback ..."; the interpreter itself, for `python -m X`: "/venv/bin/python: No module named X";
# importlib.metadata asked for an installed distribution's version: "No package metadata was found for vllm")
# pydantic 2 moved BaseSettings out and refuses code written for pydantic 1 (PydanticImportError): a package in the
# serving environment needs the other pydantic major version.
_row("pydantic_major_version_mismatch", 2, r"PydanticImportError: `\w+` has been (?:moved|removed)",
     cls="dependency_error", default_phase="load",
     cause="A package in the environment was written for pydantic 1 and pydantic 2 is installed (or the reverse): "
           "the import it needs has moved, so it fails as it loads.",
     steps=["Install the release of that package (named in the traceback) made for the installed pydantic, or the "
            "pydantic major version it needs, in the serving venv (pip check shows the conflict)"])


@_rule("python_dependency_missing", 2,
       r"(?:(?:ModuleNotFoundError|ImportError|Error|while processing method \w+): |\bpython[\d.]*: "
       # (a program that imports vLLM's integration and logs the failure: "import vllm_utils error: No module ...")
       r"|\bimport [\w.]+ error: "
       # (an application's own line for an optional backend it could not import: "vllm not installed: No module ...")
       r"|\bnot (?:installed|available): "
       # (an optional import's failure logged before its traceback: "Encountered exception while importing decord")
       r"|Encountered exception while importing [\w.]+: )"
       r"(?:No module named '?([\w.]+)'?|cannot import name '?(\w+)'?|No package metadata was found for ([\w.-]+))",
       default_phase="load")
def _missing_module(hit: _Hit) -> Finding:
    name = hit.match.group(1) or hit.match.group(2) or hit.match.group(3)
    return Finding(
        cause=f"A Python module the server (or the model's remote code) imports is missing: {name}.",
        steps=[f"Install {name} into the vLLM venv (pip install {name.split('.')[0]}, pinned in the venv's "
               "requirements), or use a vLLM image/release that includes it"])


# torchcodec, the video and audio decoder vLLM imports for multi-modal inputs, loads FFmpeg's libraries and its own
# build for the installed torch when it is imported ("RuntimeError: Could not load libtorchcodec. Likely causes: ...").
_row("torchcodec_libraries_not_loaded", 1, r"Could not load libtorchcodec",
     cls="dependency_error", default_phase="load",
     cause="torchcodec (the media decoder vLLM imports for video and audio inputs) could not load its libraries: "
           "FFmpeg is not installed, or its version, or torchcodec's build, does not match the installed torch and "
           "CUDA.",
     steps=["Install FFmpeg's shared libraries (a version torchcodec supports) on the host or in the image, and the "
            "torchcodec release built for the installed torch",
            "If the model takes no video or audio, install the vLLM variant without it or pin the torchcodec the vLLM "
            "release was tested with"])


# A script (a model's own example) importing a model implementation from vLLM that the installed release does not have
# ("No module named 'vllm.model_executor.models.deepseek_ocr'"): the model came to vLLM in a later release.
_row("model_module_not_in_release", 1, r"No module named '?vllm\.model_executor\.models\.(\w+)'?",
     cls="architecture_unsupported", default_phase="load",
     cause="The code imports a model implementation that the installed vLLM release does not have: the model was "
           "added to vLLM in a later release.",
     steps=["Install the vLLM release the model's instructions name (or a newer one), whose supported models list it; "
            "or run the example written for the installed release"])


# transformers raising its own ImportError for an optional library a tokenizer or processor needs: the message
# ("LlamaTokenizer requires the protobuf library but it was not found in your environment") follows a bare
# "ImportError:" line, and the frame above it raises one of its *_IMPORT_ERROR texts.
_row("transformers_optional_library_missing", 1, r"^ImportError:",
     cls="dependency_error", default_phase="load",
     context=r"raise ImportError\([A-Z_]+_IMPORT_ERROR\b",
     cause="transformers needs an optional library to build the tokenizer or processor (protobuf for a slow "
           "SentencePiece tokenizer's conversion, or the one its message names) and it is not installed.",
     steps=["Install the library the message names (pip install protobuf sentencepiece for Llama-style "
            "tokenizers) into the vLLM venv, pinned in its requirements"])


# pytest's header for a test file or conftest.py it could not import (the import error follows in pytest's short
# frames, "tests/x/test_y.py:7: in <module>"): the test environment lacks or mismatches a package.
_row("test_module_import_failed", 2, r"ImportError while (?:loading conftest|importing test module) '([^']+)'",
     cls="dependency_error", default_phase="load",
     cause="pytest could not import a test module or conftest.py: a package it imports (vLLM, a kernel library, a "
           "test requirement) is missing or does not match, or the pytest on PATH runs another Python.",
     steps=["Read the error line pytest prints under the header; install the test requirements (requirements/test.txt "
            "in a vLLM checkout) into the venv that builds vLLM, and run `python -m pytest` from it"])


# ----- startup: port, memory, KV cache ---------------------------------------------------------

# uvicorn before vLLM 0.7 logged "Application startup complete" and only then failed to bind.
@_rule("port_in_use", 1, r"[Aa]ddress already in use|Errno 98|EADDRINUSE", phase="startup", before_serving=True)
def _port(hit: _Hit) -> Finding:
    port = re.search(r"""['"]?[\d.:a-f]*['"]?,\s*(\d+)\)""", hit.line.message)
    number = int(port.group(1)) if port else hit.param("port")
    where = f"port {number}" if number else "the API port"
    check = f"ss -ltnp 'sport = :{number}'" if number else "ss -ltnp"
    return Finding(
        cause=f"Another process (often a stale vLLM) already listens on {where}.",
        steps=[f"Find the holder with `{check}` and stop it (a previous release's unit?), then start again",
               "Or move this release to a free --port; pre-check the port before starting the unit"])


_row("port_bind_denied", 1, r"error while attempting to bind|Errno 13\].{0,40}bind|Cannot assign requested address",
     phase="startup", before_serving=True,
     cause='The API server could not bind its host/port (no permission for the port, or the --host address is '
           'not on this machine).',
     steps=[
           'Use a port >= 1024 or grant CAP_NET_BIND_SERVICE; check --host is an address of this host (or '
           '0.0.0.0)'])


# V1's KV-cache report when the cache holds less than one request of the maximum length (a block count overridden,
# a release that only warned): the engine starts, and a long request waits or is preempted for ever.
@_rule("kv_cache_below_one_request", 2, r"Maximum concurrency for ([\d,]+) tokens per request: 0\.\d+x",
       cls="kv_cache_insufficient", default_phase="startup", quiet_levels=True)
def _kv_below_one_request(hit: _Hit) -> Finding:
    max_len = int(hit.match.group(1).replace(",", ""))
    size = re.search(r"GPU KV cache size: ([\d,]+) tokens", hit.run_text())
    fit = (int(size.group(1).replace(",", "")) // 16) * 16 if size else 0
    steps = [f"Lower max_model_len from {max_len} to {fit} (the tokens vLLM says the KV cache holds)" if fit > 0
             else f"Lower max_model_len below {max_len}",
             "Or give the KV cache more memory (raise gpu_memory_utilization, drop num_gpu_blocks_override)"]
    return Finding(
        cause=f"The KV cache holds less than one request of max_model_len ({max_len} tokens): a request that long can "
              "never be scheduled whole.",
        steps=steps, parameter_changes={"max_model_len": fit} if fit > 0 else {})


@_rule("kv_cache_too_small_for_max_model_len", 1,
       r"max seq len \((\d+)\),?\s*\(?\s*([\d.]+) GiB KV cache is needed.{0,80}?available KV cache memory "
       r"\(([\d.]+) GiB\)|max \w{3} len \((\d+)\) is larger than the maximum number of tokens that can be "
       r"stored in KV cache \((\d+)\)",
       default_phase="startup")
def _kv_too_small(hit: _Hit) -> Finding:
    text = hit.line.message
    estimate = re.search(r"estimated maximum model length is (\d+)", text)
    m = hit.match
    current = int(m.group(1) or m.group(4))
    changes: dict[str, Any] = {}
    if estimate:
        fit = int(estimate.group(1))
        source = "vLLM's own estimate of what the KV cache holds"
    elif m.group(5):
        fit = int(m.group(5))
        source = "the tokens vLLM says the KV cache holds"
    else:
        needed, available = float(m.group(2)), float(m.group(3))
        # KV bytes grow linearly with the context for full attention; GiB figures are rounded, so the
        # result is approximate and rounded down to a 16-token block.
        fit = (int(current * available / needed) // 16) * 16 if needed > 0 else 0
        source = "about, scaled from the GiB figures in the message"
    steps = []
    if fit > 0:
        changes["max_model_len"] = fit
        shown = {**hit.params, "max_model_len": hit.param("max_model_len") or current}
        steps.append(f"Lower max_model_len from {shown['max_model_len']} to {fit} ({source}), "
                     "or use --max-model-len auto")
    else:
        steps.append(f"Lower max_model_len below {current}, or use --max-model-len auto")
    kv_bytes = hit.param("kv_cache_memory_bytes")
    explicit = kv_bytes or re.search(r"Explicitly set \([\d.]+/[\d.]+\) GiB for KV", hit.run_text())
    if explicit:
        steps.append("Or give the KV cache more memory: raise --kv-cache-memory-bytes / VLLM_CPU_KVCACHE_SPACE"
                     + (f" (now {kv_bytes} bytes)" if kv_bytes else ""))
    else:
        steps.append(f"Or give the KV cache more memory: {_raise_utilisation(hit)}")
    steps.append("Or store fewer bytes per token or spread them: kv_cache_dtype fp8, more GPUs "
                 "(tensor_parallel_size), then a smaller/quantized model")
    return Finding(
        cause=f"The KV cache cannot hold even one request of max_model_len {current} tokens "
              f"(checked after the memory profile).",
        steps=steps, parameter_changes=changes)


@_rule("no_kv_cache_memory", 1,
       r"No available memory for the cache blocks|No available memory for the KV cache|Insufficient memory for "
       r"(?:the )?KV cache|num_gpu_blocks.{0,20}(?:<= ?0|is 0)",
       default_phase="startup", hints=(r"Estimated CUDA graph memory: [\d.]+ GiB",))
def _no_kv(hit: _Hit) -> Finding:
    graphs = vllm_log.cudagraph_estimate_gib(hit.run_text())
    steps = [f"{_upper_first(_raise_utilisation(hit))} so the KV cache gets memory after weights, "
             "activations and CUDA graphs"]
    if graphs:
        steps.insert(0, f"The profile reserved {graphs:.2f} GiB for CUDA graphs: start with "
                        "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 or --enforce-eager")
    steps += ["Lower max_num_seqs / max_num_batched_tokens (smaller profiling peak)",
              "Then more GPUs (tensor_parallel_size) or a quantized checkpoint: the weights leave no room"]
    return Finding(
        cause="Nothing was left for the KV cache after the memory profile (weights + activations + "
              "CUDA graphs used the whole gpu_memory_utilization budget).",
        steps=steps)


# vLLM logs the KV budget it computed before it checks it: a negative budget cannot hold a single block.
# V1 and V0 wordings: "Available KV cache memory: -0.87 GiB"; "reserved for KV Cache is -1.05GiB"; "# cuda blocks: 0".
_row("negative_kv_cache_budget", 2,
     r"Available KV cache memory: -\d|reserved for KV Cache is -\d|# (?:GPU|cuda) blocks: 0\b",
     cls="kv_cache_insufficient", default_phase="startup", quiet_levels=True,
     cause="The memory profile left a negative budget for the KV cache: the weights and activations already use more "
           "than gpu_memory_utilization allows.",
     steps=["Raise gpu_memory_utilization, or lower max_num_seqs / max_num_batched_tokens (smaller activation "
            "peak)", "Then more devices (tensor_parallel_size) or a quantized checkpoint: the weights leave no room"])


@_rule("cpu_memory_insufficient", 1,
       r"Available memory on node \d+ .{0,80}less than (?:desired CPU memory utilization|requested memory for kv)",
       default_phase="startup")
def _cpu_memory(hit: _Hit) -> Finding:
    return Finding(
        cause="On the CPU backend the requested memory (gpu_memory_utilization of RAM, or the explicit KV "
              "size) is more than the NUMA node has free.",
        steps=["Set an explicit, smaller KV cache: --kv-cache-memory-bytes or VLLM_CPU_KVCACHE_SPACE (GiB)",
               f"Or {_lower_utilisation(hit)} (on CPU it is a fraction of RAM), or free memory from other "
               "processes"])


@_rule("oom_sampler_warmup", 1, r"out of memory occurred when warming up (?:sampler|pooler) with (\d+)",
       default_phase="startup")
def _oom_sampler(hit: _Hit) -> Finding:
    seqs = int(hit.match.group(1))
    return Finding(
        cause=f"GPU memory ran out while warming up the sampler with max_num_seqs={seqs} dummy requests.",
        steps=[f"Lower max_num_seqs {_from_to(hit, 'max_num_seqs', max(seqs // 4, 1))}",
               _upper_first(_lower_utilisation(hit))],
        parameter_changes={})


@_rule("gpu_out_of_memory", 1,
       r"CUDA out of memory|CUDA (?:[Ee]rror|driver error): out of memory|(?<!ray\.exceptions\.)OutOfMemoryError"
       r"|HIP out of memory|cudaErrorMemoryAllocation"
       r"|CUBLAS_STATUS_ALLOC_FAILED|Tried to allocate [\d.]+ [GM]iB"
       # torch_npu (Ascend): its allocator's message and the error code it raises with it; the CANN runtime's own
       # allocation failure
       r"|NPU out of memory|ERR00006 PTA memory error|reason=\[driver error:out of memory\]"
       # (CANN's own code for it, under the ACL call's "ERR00100 PTA call acl api failed")
       r"|Memory_Allocation_Failure\(EL0004\)"
       # torch's caching allocator reporting the failed allocation itself (its own warning, before the exception)
       r"|memory allocation failed with OOM on device \d+"
       # Intel XPUs (Level Zero through the unified runtime): the device's memory or resources ran out
       r"|UR_RESULT_ERROR_OUT_OF_(?:DEVICE_)?(?:MEMORY|RESOURCES)"
       # torch's caching allocator asks NVML for the process's usage to word its out-of-memory message; where NVML
       # cannot answer (MIG, some containers) the allocation failure surfaces as this assertion instead
       r"|NVML_SUCCESS == r INTERNAL ASSERT FAILED at \S*CUDACachingAllocator\.cpp",
       default_phase="startup",
       hints=(r"CUDA graphs can take additional|Capturing CUDA graph|Estimated CUDA graph memory",))
def _gpu_oom(hit: _Hit) -> Finding:
    if hit.phase == "load":
        return Finding(
            cause="GPU memory ran out while loading the weights: the model does not fit on the GPUs used.",
            steps=["Check no other process holds GPU memory (nvidia-smi)",
                   "Spread the weights: raise tensor_parallel_size / pipeline_parallel_size (more GPUs)",
                   "Then a quantized checkpoint (fp8/int4) or larger GPUs"])
    if hit.phase == "runtime":
        return Finding(
            cause="GPU memory ran out while serving (a large batch or long prompts exceeded the activation "
                  "headroom).",
            steps=["Lower max_num_seqs / max_num_batched_tokens (concurrency)",
                   f"{_upper_first(_lower_utilisation(hit))} to leave activation headroom",
                   "Lower max_model_len if long prompts are not needed; then more GPUs or quantization"])
    graphs = re.search(r"CUDA graph", hit.run_text())
    return Finding(
        cause="GPU memory ran out during startup (memory profiling, KV allocation"
              + (", CUDA-graph capture" if graphs else " or CUDA-graph capture") + ").",
        steps=["Lower max_num_seqs / max_num_batched_tokens (smaller profiling batch, fewer graph sizes)",
               f"{_upper_first(_lower_utilisation(hit))} (headroom for CUDA graphs and non-torch memory)",
               "Start with --enforce-eager (no CUDA graphs)",
               "Then more GPUs (tensor_parallel_size) or a quantized checkpoint"])


# (Ray's message for any worker that died lists "(1) the process was killed by the OOM killer due to high memory usage"
# among its common causes: a guess, not the kernel's report)
_row("host_out_of_memory", 1,
     r"(?<!Some common causes include: \(1\) the process was )killed by the OOM killer"
     r"|oom-kill|Out of memory: Killed process|Failed with result 'oom-kill'"
     r"|\bMemoryError\b|Cannot allocate memory \(12\)|\[Errno 12\] Cannot allocate memory"
     # a container's or job's exit status 137 (128 + SIGKILL, the OOM killer's signal), Kubernetes' reason; `kubectl
     # describe pod` aligns its value ("Exit Code:    137")
     r"|[Ee]xit(?:ed)?(?: with)? (?:[Cc]ode|status):?\s+137\b|\bOOMKilled\b",
     default_phase="load",
     cause='The host ran out of RAM and the kernel OOM killer (or Python) stopped the server.',
     steps=[
           'Free RAM or give the unit more (MemoryMax); lower swap_space / cpu_offload_gb, and on CPU the KV '
           'cache size (VLLM_CPU_KVCACHE_SPACE)',
           'Loading a large checkpoint needs RAM headroom: load one release at a time'])

# Pinned (page-locked) host memory that CUDA cannot give: torch.empty(..., pin_memory=True) for V0's swap space, a CPU
# KV offload buffer or LMCache's CPU cache fails as "CUDA error: invalid argument", not as an out-of-memory error.
_row("pinned_host_memory_unavailable", 1, r"CUDA error: invalid argument|cudaErrorInvalidValue",
     context=r"pin_memory|pinned memory|cudaHostAlloc|cudaHostRegister",
     cls="host_oom", default_phase="startup",
     cause="CUDA could not pin the host memory asked for (swap space, a CPU KV offload buffer or a KV cache "
           "connector's CPU cache): more than the host, the container or WSL lets be locked.",
     steps=["Lower the pinned buffer: swap_space (V0), kv_offloading_size / cpu_offload_gb, or the connector's CPU "
            "cache size (LMCACHE_MAX_LOCAL_CPU_SIZE)",
            "Check the memory the host or container allows (free -g, `ulimit -l`, WSL's memory setting)"])


# The shell's report of its foreground job ending on SIGKILL ("Killed", or bash's "line 3: 4321 Killed  python ..."):
# after a log that shows no error of its own, the sender is almost always the kernel's OOM killer. After an error
# the kill is part of the shutdown that error started, so the rule reads only a log with no error above it.
_row("killed_by_sigkill", 2, r"^\s*Killed\s*$|\bline \d+:\s+\d+ Killed\s",
     cls="host_oom", default_phase="load",
     context=r"^(?![\s\S]*(?:\bERROR\b|CRITICAL|Traceback|Error:|Exception:))",
     cause="The process was killed with SIGKILL (the shell printed 'Killed') after a log that shows no error of "
           "its own: on Linux that is almost always the kernel's OOM killer, the host's RAM ran out.",
     steps=["Confirm with `dmesg -T | grep -i -E 'killed process|out of memory'` (or `journalctl -k`)",
            "Free RAM or give the process more; lower swap_space / cpu_offload_gb (CPU blocks are host RAM), and "
            "on unified-memory devices (Jetson, GH200) lower gpu_memory_utilization too"])


_row("too_many_open_files", 1, r"Too many open files|Errno 24\]", default_phase="startup",
     cause='The process hit its open-file limit (ulimit -n).',
     steps=[
           'Raise LimitNOFILE in the unit (e.g. 1048576) and restart'])


# A native library refused a system call (EPERM) and the process aborts: the container or sandbox withholds a
# capability (seccomp, set_mempolicy for NUMA binding, memlock)
_row("system_call_not_permitted", 1, r"what\(\):\s+Operation not permitted",
     cls="resource_limit", default_phase="load",
     cause="A native library was refused a system call (Operation not permitted) and the process aborted: the "
           "container runs without a capability or limit it needs.",
     steps=["Run the container with the privileges vLLM's images expect (--ipc=host, --cap-add SYS_NICE, "
            "--ulimit memlock=-1, or --privileged to confirm), or the unit with LimitMEMLOCK=infinity"])


# A worker rebuilding a multiprocessing lock from its parent finds the POSIX semaphore gone from /dev/shm:
# systemd-logind (RemoveIPC=yes, its default) deletes a user's semaphores and shared memory when that user's last
# session ends, as when the SSH session that started the server logs out.
_row("multiprocessing_semaphore_removed", 1, r"FileNotFoundError: \[Errno 2\] No such file or directory\s*$",
     context=r"SemLock\._rebuild", cls="resource_limit", default_phase="startup",
     cause="A worker could not open a multiprocessing semaphore its parent created: the semaphore was removed from "
           "/dev/shm, usually by systemd-logind when the session that started the server ended (RemoveIPC=yes).",
     steps=["Run the server as a systemd service or a system user, not from an interactive session, or set "
            "RemoveIPC=no in /etc/systemd/logind.conf and restart systemd-logind",
            "Check nothing else cleans /dev/shm while the server runs"])


# Ascend's CANN graph engine (GE) failing while it compiles the model's graph (torchair or ACL graph mode): its own
# "[ERROR] GE(pid,...)" lines with an error number.
_row("ascend_graph_engine_failed", 1, r"\[ERROR\] GE\(\d+,[^)]*\):.{0,120}ErrorNo: \d+",
     cls="compile_error", default_phase="startup",
     cause="Ascend's graph engine (CANN GE) failed while compiling the model's graph (the first GE error names the "
           "operator).",
     steps=["Start in eager mode (--enforce-eager) or without the graph mode (torchair / ACL graph) to confirm",
            "Check the CANN toolkit and kernels packages match the versions this vllm-ascend release names"])


# A quantized layer whose shard does not split evenly into the quantization's groups: vLLM's own message names the
# tensor-parallel size as the usual reason.
_row("quantized_shard_not_aligned", 1,
     r"input size is not aligned with the quantized weight shape|output size is not aligned with the quantized "
     r"weight shape",
     cls="parallel_config_invalid", default_phase="load",
     cause="A quantized layer does not split evenly across the tensor-parallel ranks (its size per rank is not a "
           "multiple of the quantization's group size): the tensor-parallel size is too large for this checkpoint.",
     steps=["Lower tensor_parallel_size (use pipeline_parallel_size for more GPUs), or use a checkpoint quantized with "
            "a group size that divides the per-rank size"])
# A compiler (Triton's or a vendor's JIT backend) crashing on a kernel: "internal compiler error" is the compiler's
# own failure, not the model's.
_row("kernel_compiler_crashed", 1, r"internal compiler error",
     cls="compile_error", default_phase="startup",
     cause="A kernel compiler crashed (internal compiler error) while compiling one of vLLM's kernels: a compiler or "
           "driver bug for this device, not a fault of the model.",
     steps=["Update the GPU driver and the compiler stack (Triton, the vendor's compiler runtime) to the versions this "
            "vLLM release names",
            "Run with --enforce-eager to narrow it down, and report the kernel named just above"])
# FlashAttention 3's Hopper kernels (flash-attention/hopper, vendored in xformers or vLLM) launched on a GPU that is not
# Hopper: the launch fails with "invalid argument".
_row("hopper_kernel_on_other_gpu", 1,
     r"flash-attention/hopper/\S+\): invalid argument|hopper/flash_fwd\S*\): invalid argument",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="FlashAttention 3's Hopper-only kernels were launched on a GPU that is not Hopper (sm_90).",
     steps=["Select another attention backend (VLLM_ATTENTION_BACKEND / --attention-backend, or the wrapper's own "
            "attention setting) or FlashAttention 2 on this GPU",
            "Use a build of the wrapper (xformers, vLLM) whose kernels include this GPU's architecture"])


# Marlin repacking a checkpoint's quantization scales into its own layout: scales whose shape its permutation cannot
# take (per-tensor scales, a group size Marlin has no kernel for) fail the reshape.
_row("marlin_scales_layout_unsupported", 1, r"RuntimeError: shape '\[[^\]]*\]' is invalid for input of size \d+",
     context=r"marlin_permute_scales|marlin_utils\.py", cls="quantization_unsupported", default_phase="load",
     cause="The Marlin kernels could not repack this checkpoint's quantization scales (their shape does not fit "
           "Marlin's layout: per-tensor scales, or a group size it has no kernel for).",
     steps=["Serve the checkpoint with another kernel for its quantization (--quantization naming the method "
            "without Marlin, or a release whose Marlin path takes this scale layout)",
            "Or use a checkpoint quantized with per-channel or per-group scales Marlin supports"])
# A model implementation that needs weights the published checkpoint does not ship (an audio encoder left out of an
# open release): the feature fails when a request uses it.
_row("checkpoint_lacks_weights_for_feature", 1,
     r"requires \w+ weights which are not (?:available|included) in the (?:open-source |released )?checkpoint",
     cls="weights_missing", default_phase="runtime",
     cause="The request used a feature whose weights this checkpoint does not include (the message names them).",
     steps=["Do not use that feature with this checkpoint (for speech models: a preset voice instead of cloning "
            "from audio), or serve a checkpoint that includes those weights"])


# tokenizers' incremental decoder (DecodeStream, used by V1's detokenizer) refusing the token id it was handed: an id
# that is not an integer the tokenizer knows (a sampled id past the tokenizer's vocabulary, a None from a parser).
_row("detokenizer_token_rejected", 1, r"StreamInput must be either an integer or a list of integers",
     cls="tokenizer_error", default_phase="runtime",
     cause="The detokenizer's incremental decoder (tokenizers' DecodeStream) refused a generated token id: the id is "
           "not one the tokenizer can decode (the model's vocabulary is larger than the tokenizer's, or a parser "
           "passed something other than an id).",
     steps=["Check the tokenizer matches the model (vocab_size in config.json against len(tokenizer)), and the "
            "tokenizers version this vLLM release pins",
            "If it follows a tool or reasoning parser, retry without it to find which one hands the bad value"])


# A second engine built in a process whose first engine's distributed state is still set up (two LLM objects in one
# script, or one built again after the first was deleted): vLLM's parallel groups are process-wide.
_row("parallel_groups_already_initialised", 1,
     r"(?:tensor|pipeline|data|expert) model parallel group is already initialized",
     cls="parallel_config_invalid", default_phase="load",
     cause="A second engine was built in a process whose first engine's parallel groups still exist: vLLM's "
           "distributed state is per process.",
     steps=["Build one engine per process (a separate process for each model), or tear the first one down before the "
            "next (del llm; destroy_model_parallel(); destroy_distributed_environment())"])


# An older vLLM reading rope_scaling["type"] from a config that names it "rope_type" (Llama 3.1's "llama3" scaling
# and later models): the release predates the model's config format.
_row("rope_scaling_type_key_missing", 1, r"KeyError: 'type'",
     context=r"rope_scaling\[[\"']type[\"']\]", cls="config_invalid", default_phase="load",
     cause="This vLLM reads rope_scaling['type'] and the model's config.json names its RoPE scaling with "
           "'rope_type' (a newer config format than the release knows).",
     steps=["Upgrade vLLM to a release that supports this model's RoPE scaling",
            "Only as a stop-gap: add the matching 'type' key to rope_scaling in config.json"])
# NVIDIA GPUDirect Storage (cuFile) refusing to register a GPU buffer for fastsafetensors' direct loads: GDS or its
# nvidia-fs module is not usable on this host or in this container.
_row("gpudirect_storage_register_failed", 1,
     r"cuFileBufRegister returned an error|cuFileDriverOpen (?:returned|failed)",
     cls="driver_or_runtime", default_phase="load",
     cause="GPUDirect Storage (cuFile) could not register a GPU buffer for direct weight loading (fastsafetensors): "
           "GDS or its kernel module is not usable here, or the GPU's BAR space is exhausted by other instances.",
     steps=["Load without GPUDirect (load_format safetensors, or fastsafetensors with GDS off)",
            "Check GDS with gdscheck -p and that nvidia-fs is loaded on the host and visible in the container"])


# The model registry iterating the config's `architectures` when there is none: a config.json without the key, or
# hf_overrides that set "architecture" (singular) instead.
_row("config_architectures_missing", 1, r"TypeError: 'NoneType' object is not iterable",
     context=r"for arch in architectures", cls="config_invalid", default_phase="load",
     cause="The model's configuration has no `architectures` list, so vLLM cannot pick a model class.",
     steps=["Add \"architectures\": [\"<ModelClass>\"] to config.json, or pass hf_overrides={\"architectures\": "
            "[\"<ModelClass>\"]} (the key is plural and takes a list)"])


# A process that cannot start one more thread (EAGAIN from pthread_create): the user's or the container's limit on
# processes and threads is reached (Ray and torch start many threads per worker).
_row("thread_limit_reached", 1,
     r"thread: Resource temporarily unavailable|can't start new thread|pthread_create failed"
     r"|Resource temporarily unavailable \[system:11\]",
     cls="resource_limit", default_phase="load",
     cause="A process could not start a new thread: the limit on processes and threads for the user or the "
           "container (ulimit -u, the container's pids limit) is reached.",
     steps=["Raise the limit: TasksMax=infinity and LimitNPROC in the unit, ulimit -u for a shell, the pod's or "
            "container's pids limit (--pids-limit)",
            "Or start fewer threads per process (OMP_NUM_THREADS, fewer Ray workers per node)"])


# ----- startup: parallel layout, distributed, drivers ------------------------------------------

@_rule("attention_heads_not_divisible", 1,
       r"attention heads \((\d+)\) must be divisible by tensor parallel size \((\d+)\)", default_phase="startup")
def _heads(hit: _Hit) -> Finding:
    heads, tp = int(hit.match.group(1)), int(hit.match.group(2))
    fit = _largest_divisor_at_most(heads, tp)
    return Finding(
        cause=f"tensor_parallel_size {tp} does not divide the model's {heads} attention heads.",
        steps=[f"Use a tensor_parallel_size that divides {heads} (e.g. {fit}); run several smaller "
               "instances, or use pipeline_parallel_size, which has no head constraint"],
        parameter_changes={"tensor_parallel_size": fit})


# A bare AssertionError under a model's own check that a size divides by the parallel size
# ("assert self.total_num_kv_heads % tp_size == 0" in ChatGLM's attention): the assert's line is the message.
_row("parallel_size_assert", 1, r"^AssertionError\s*$",
     context=r"\bassert [^\n]*%\s*\(?(?:self\.)?(?:tp_size|tp_world_size|tensor_parallel_size|"
             r"tensor_model_parallel_size|pp_size|pipeline_parallel_size|world_size)\b[^\n]*==\s*0",
     cls="parallel_config_invalid", default_phase="load",
     cause="The model's code asserts that one of its sizes (attention or KV heads, experts, layers) divides by the "
           "parallel size, and it does not: the assert's line above the error names which.",
     steps=["Use a tensor (or pipeline) parallel size that divides the size the assert names (the model's "
            "config.json gives it), or run several smaller instances"])
# vLLM's ensure_divisibility() splitting a model size across tensor-parallel ranks ("AssertionError: 13653 is not
# divisible by 4", or pydantic's wrap of it): the message is the two numbers alone.
_row("parallel_size_not_divisible", 1, r"(?:^|AssertionError: )\s*\d+ is not divisible by \d+\b",
     cls="parallel_config_invalid", default_phase="load",
     cause="vLLM splits one of the model's sizes (the first number) across the tensor-parallel ranks (the second), "
           "and it does not divide.",
     steps=["Use a tensor_parallel_size that divides the model's sizes (heads, vocabulary, intermediate size in "
            "config.json), pipeline_parallel_size for the rest, or several smaller instances"])
_row("parallel_layout_invalid", 1,
     # (Ray's "Waiting for creating a placement group" is a wait on the cluster: ray_placement_group_waiting)
     r"number of required GPUs exceeds|(?<!creating a )[Pp]lacement group"
     r"|(?:[Tt]ensor|[Pp]ipeline|[Dd]ata|[Ee]xpert|[Cc]ontext)[ _]parallel(?:[ _]size)?"
     r".{0,80}(?:must|exceed|greater than|larger than|divisible|not enough|available)"
     r"|\b(?:tp|pp|dp|ep|cp)_(?:world_)?size\b.{0,60}(?:must|divisible|positive|exceed)"
     r"|divisible by (?:ep_size|tp_size|world_size)|world[_ ]size.{0,60}(?:must|exceed|greater|positive)"
     r"|invalid device ordinal|GPUs per node is not divisible"
     # initialize_model_parallel's check of the launcher's world size ("world_size (8) is not equal to
     # tensor_model_parallel_size (4) x pipeline_model_parallel_size (1)")
     r"|world_size \(\d+\) is not equal to tensor_model_parallel_size",
     default_phase="startup",
     cause='The parallel layout does not fit the GPUs or the model: TP x PP x DP must equal the GPUs that are '
           'visible (all Ray nodes joined), and TP/EP must divide heads and experts.',
     steps=[
           'Check the GPUs each node sees (nvidia-smi, `ray status` for multi-node) and that every node has '
           'joined',
           'Choose tensor/pipeline/data/expert parallel sizes whose product is the GPU count and that divide '
           "the model's heads and experts (num_redundant_experts for EPLB)"])
# A parallelism this executor or model does not run, refused when the config is checked, before any worker starts
# ("Pipeline parallelism is not supported yet with multiprocessing", "... is not supported for this model", and
# 0.5/0.6's "Pipeline parallelism is only supported for the following  architectures: [...]").
_row("parallelism_not_supported", 1,
     r"(?:Tensor|Pipeline|Data|Expert) parallelism is (?:not (?:yet )?supported|only supported for)",
     cls="parallel_config_invalid", default_phase="load",
     cause="This vLLM does not run the parallelism asked for with this model or executor (the message says which); "
           "the config check refuses it before any worker starts.",
     steps=["Use a parallelism the message allows: tensor parallelism instead of pipeline parallelism for this model, "
            "or the executor it names (e.g. --distributed-executor-backend ray)",
            "Or a vLLM release whose model code supports it (the model's class lists SupportsPP)"])
# V0.7+ logs the shortfall as a WARNING and then waits for the placement group, which never forms until GPUs are
# added: a start that cannot go on, not a risk.
_row("placement_group_gpus_short", 1, r"number of required GPUs exceeds the total number of available GPUs",
     cls="parallel_config_invalid", default_phase="load", quiet_levels=True,
     cause="The parallel layout needs more GPUs than the Ray cluster offers (TP x PP x DP above the GPUs of the nodes "
           "that joined), so the engine waits for a placement group that cannot form.",
     steps=["Check `ray status`: the GPUs of every node that joined; start the missing nodes, or lower "
            "--tensor-parallel-size / --pipeline-parallel-size so TP x PP fits them"])

# A data-parallel engine (a headless node's) reports the hash of its config at the handshake; the front end refuses
# one that differs from its own.
_row("dp_engine_config_mismatch", 1, r"Configuration mismatch detected for engine \d+",
     cls="parallel_config_invalid", default_phase="startup",
     cause="A data-parallel engine (a headless node's) was started with a configuration that differs from the front "
           "end's: the two configs' hashes differ at the handshake.",
     steps=["Start every data-parallel node with the same vLLM release, model and engine arguments (only the rank "
            "and address flags differ); compare the nodes' 'non-default args' lines"])

# Ray's object store lives in /dev/shm: a container's small /dev/shm stops the raylet before any NCCL runs.
_row("ray_object_store_shm_too_small", 1, r"System memory request exceeds memory available in /dev/shm",
     cls="resource_limit", default_phase="load", quiet_levels=True,
     cause="Ray's object store asked for more shared memory than the container's /dev/shm holds (Docker gives 64 MiB "
           "unless told otherwise), so the Ray node cannot start its workers.",
     steps=["Give the container a larger /dev/shm (--shm-size, or a memory-backed emptyDir at /dev/shm in Kubernetes), "
            "or cap Ray's object store (--object-store-memory)"])
# vLLM's own check before it builds the workers' shared-memory message queues: not NCCL's, the queue needs more than
# the container's /dev/shm has free.
_row("message_queue_shm_too_small", 1, r"Insufficient space in /dev/shm: [\d.]+ \w+ required, [\d.]+ \w+ free",
     cls="resource_limit", default_phase="load",
     cause="vLLM's worker message queues need more shared memory than /dev/shm has free (a container's default is 64 "
           "MiB), so the executor could not start its workers.",
     steps=["Give the container a larger /dev/shm (--shm-size, --ipc=host, or a memory-backed emptyDir at /dev/shm in "
            "Kubernetes), or free what fills it"])
# /dev/shm counts only beside a failure's words: a pod's description or a launch command names it as a mount
_row("nccl_shared_memory", 1,
     r"shared memory segment|shm_open|Bus error|(?:[Ee]rror|[Ff]ail|No space|[Cc]annot|[Uu]nable)[^\n]*/dev/shm"
     r"|/dev/shm[^\n]*(?:[Ee]rror|[Ff]ail|No space|full|too small)", default_phase="startup",
     hints=(r"NCCL error|unhandled system error",),
     cause='NCCL (or the worker message queue) could not allocate shared memory: /dev/shm is too small (a '
           'container default of 64 MB).',
     steps=[
           'Run with --ipc=host or a large --shm-size (e.g. 16g); on the host, check /dev/shm is not full'])


_row("nccl_dmabuf", 1, r"dmabuf", default_phase="startup",
     cause="NCCL's DMA-BUF registration failed on this InfiniBand setup.",
     steps=[
           'Set NCCL_DMABUF_ENABLE=0 (keep nvidia_peermem loaded) and restart'])


# vLLM finds its own address by opening a UDP socket towards a public address (get_ip); a host without a route out
# (air-gapped, no default gateway) fails there before any worker starts.
_row("host_ip_lookup_unreachable", 1, r"Network is unreachable",
     cls="distributed_network", default_phase="load", context=r"\bget_ip\b",
     cause="vLLM could not work out this host's address: it probes a route to a public address (get_ip), and this "
           "host has no route out (an air-gapped or isolated network).",
     steps=["Set VLLM_HOST_IP to this node's address on the network the workers share (and the Ray node IP on "
            "multi-node); no route to the internet is needed then"])
# NVSHMEM (the one-sided communication library under DeepEP's and pplx's expert-parallel all-to-all kernels) failing
# to set itself up: its host init reporting a non-zero status ("init.cu:1034: non-zero status: 28 nvshmem detect topo
# failed"), as the workers create their all-to-all communicators.
_row("nvshmem_init_failed", 1,
     r"/nvshmem\w*/src/\S+:\d+: non-zero status: -?\d+|\bnvshmem (?:detect topo|init(?:ialization)?) failed",
     cls="nccl_error", default_phase="startup",
     cause="NVSHMEM, the library expert parallelism's all-to-all kernels (DeepEP, pplx) communicate through, could not "
           "initialise: it found no usable transport or topology between the GPUs (RDMA NICs, GPUDirect, IBGDA or the "
           "cloud fabric such as EFA not set up for it).",
     steps=["Rerun with NVSHMEM_DEBUG=INFO and read which transport it fails on; check the NICs the pod sees, "
            "GPUDirect RDMA (nvidia-peermem) and NVSHMEM's transport variables for this fabric",
            "Or start without that all-to-all backend (another --all2all-backend, or no expert parallelism) to "
            "confirm"])
# DeepEP's all-to-all (expert parallel's dispatch and combine over NVLink and RDMA through NVSHMEM) not completing:
# the receiving side timed out waiting for the other ranks' tokens.
_row("expert_parallel_all_to_all_timeout", 1, r"DeepEP error: timeout",
     cls="distributed_network", default_phase="startup",
     cause="DeepEP's expert-parallel all-to-all did not complete: a rank waited past its timeout for the others' "
           "tokens, because the RDMA or NVLink path between them (NVSHMEM, GPUDirect RDMA, IBGDA) does not work or a "
           "peer rank stalled.",
     steps=["Look for the first rank that failed; check the nodes' RDMA setup for NVSHMEM (GPUDirect RDMA, the "
            "NICs visible in the pod, IBGDA) with NVSHMEM_DEBUG=INFO, or try another all2all backend"])
_row("distributed_network", 1,
     r"DistNetworkError|DistStoreError|socket has timed out|TCPStore|rendezvous|Gloo connectFullMesh|GLOO_SOCKET_IFNAME"
     r"|waiting for clients\. \d+/\d+ clients joined|\[c10d\] .{0,120}timed out after \d+"
     r"|Connection refused.{0,40}(?:master|store|:\d{4,5})"
     # torch's c10d client reaching the store's address
     r"|client socket has failed to connect to any network address"
     # an RDMA transfer (a KV-cache connector's NIC to NIC) that the peer never acknowledged: ibverbs' retry-exceeded
     # status (IBV_WC_RETRY_EXC_ERR), a path between the two NICs that does not carry RDMA
     r"|transport retry counter exceeded",
     default_phase="startup",
     cause='Workers could not reach each other (TCP store / Gloo / NCCL bootstrap): a wrong advertised IP, '
           'firewall, or the wrong network interface.',
     steps=[
           "Set VLLM_HOST_IP / --master-addr to the node's reachable address (host networking in containers) "
           'and NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME to the right interface',
           'Check the port is open between nodes'])


# Ascend's LLMDataDist linking a prefill instance's NPUs to a decode instance's for the KV cache transfer
# ("llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED"): the two clusters'
# devices could not reach each other over the HCCS/RoCE network the rank table names.
_row("kv_transfer_link_failed", 1, r"\bLLM_LINK_FAILED\b|LLMException: \[link\] failed",
     cls="distributed_network", default_phase="runtime",
     cause="The KV-cache transfer link between a prefill and a decode instance (Ascend's LLMDataDist) could not be "
           "made: their devices cannot reach each other on the network their rank table names.",
     steps=["Check the device IPs in the rank table on both instances (hccn_tool -i N -ip -g) and that the NPUs "
            "ping each other (hccn_tool -i N -ping -g address X); both sides must use the same network and ports",
            "Start both instances with the same vllm-ascend and CANN versions"])


_row("first_collective_never_completed", 1, r"WorkNCCL\(SeqNum=1, .{0,120}ran for \d+ milliseconds before timing out",
     cls="nccl_error", default_phase="load",
     cause="The very first NCCL collective (SeqNum=1) never completed: the GPUs never communicated, so the start "
           "hangs at distributed init until the watchdog kills it (P2P/IPC between these GPUs or the network "
           "between nodes does not work).",
     steps=["Rerun with NCCL_DEBUG=INFO; try NCCL_P2P_DISABLE=1 (consumer GPUs without working P2P) and check "
            "`nvidia-smi topo -m`",
            "Across nodes: NCCL_SOCKET_IFNAME / NCCL_IB_HCA to the interface the nodes share"])
_row("collective_timeout", 1,
     r"Watchdog caught collective operation timeout|collective operation timeout|Timeout\(ms\)=\d+\) ran for"
     r"|execute_model.{0,60}tim(?:ed|e) ?out|RPC call to \w+ timed out|Engine iteration timed out"
     # Ray's compiled graph (V1's Ray executor) waits on its channels for the workers' step output
     r"|RayChannelTimeoutError|Timed out waiting for object available to read"
     # torch's heartbeat monitor: the NCCL watchdog itself stayed blocked on a hung collective, so the process is
     # killed
     r"|Heartbeat monitor timed out|watchdog got stuck for \d+ seconds",
     default_phase="runtime",
     cause='A collective (NCCL all-reduce/broadcast) or a model step hung until the watchdog killed it: a '
           'rank died or stalled, or the inter-node network dropped.',
     steps=[
           'Find the first rank that failed above (its error is the root cause); check the inter-node network '
           '(IB/RoCE) and NCCL_DEBUG=INFO',
           'For multi-node expert parallel use a supported all2all backend; restart the unit'])
# Any other TimeoutError with a message ("Batch 62 generation timed out after 300.0s", a trainer waiting on the
# server): a wait ran out; the weakest tier, so the rows that name what waited still win.
_row("wait_timed_out", 3, r"^(?:\w+\.)*TimeoutError: \S",
     cls="timeout", default_phase="runtime",
     cause="A wait ran out of time (a TimeoutError with its own message): the program waited on the server or on "
           "a step longer than its limit.",
     steps=["Read the message for what waited and for how long; check the server's log at that time for a slow or "
            "stuck step (long prompts, a full KV cache, a hung rank), then raise the client's timeout or lower "
            "the load"])
# Python's faulthandler dumping every thread's stack when a deadline passes ("Timeout (0:25:00)!", as pytest-timeout and
# test runners arm it): the process was still running, stuck, when its time ran out.
_row("faulthandler_deadline_passed", 2, r"^\s*Timeout \(\d+:\d\d:\d\d\)!\s*$",
     cls="timeout", default_phase="runtime",
     cause="The process ran past its deadline and faulthandler dumped its threads' stacks (\"Timeout (h:mm:ss)!\"): "
           "it was stuck (a hang in a step, a collective or a wait) or slower than its limit.",
     steps=["Read the dumped stacks for the thread that was waiting and on what (a collective, a queue, a lock); "
            "rerun the step alone with VLLM_LOGGING_LEVEL=DEBUG to see the last thing it did"])
# V0's front end (the MQ engine client) waits VLLM_RPC_TIMEOUT for the engine process to answer its RPCs.
_row("engine_rpc_no_reply", 1, r"Server didn't reply within \d+ ms",
     cls="timeout", default_phase="runtime",
     cause="The API server's front end got no answer from the engine process within VLLM_RPC_TIMEOUT: the engine "
           "was blocked (a long step, a hung collective) or had died.",
     steps=["Look above for the engine process's own error or its last step; if it only answered late while busy, "
            "raise VLLM_RPC_TIMEOUT (milliseconds) or lower the load"])
# Ray Serve asks each replica's engine for its health on a timer; no answer in time marks the replica unhealthy and
# Serve replaces it, dropping its requests.
_row("serve_replica_health_check_timeout", 1,
     r"Didn't receive health check response for replica .{0,200}marking it unhealthy",
     cls="timeout", default_phase="runtime",
     cause="Ray Serve got no answer to a replica's health check in time and marked it unhealthy (it is restarted, "
           "its requests lost): the engine or its event loop was blocked (long prefills under load, a hung step) "
           "or the replica had died.",
     steps=["Look above for the replica's own error; if it was only busy, lower max_num_batched_tokens or the "
            "load, or raise the deployment's health_check_timeout_s",
            "Check the replica's engine log (its actor's stdout) for a hung or failed step"])


_row("nccl_error", 2,
     # (torch's warnings from ProcessGroupNCCL, at any exit without destroy_process_group() or for a deprecated
     # environment variable, are not NCCL's error)
     r"\bNCCL error\b|nccl\w*Error|NCCL WARN"
     r"|(?<!destruct )ProcessGroupNCCL"
     r"(?!\.cpp:\d+\] Warning: (?:WARNING: (?:destroy_process_group|process group has NOT been destroyed)"
     r"|TORCH_NCCL_\w+ is the default now))"
     r"|DistBackendError|unhandled (?:system|cuda) error"
     # Ascend's collectives (HCCL, through torch_npu): "ERR02200 DIST call hccl api failed."
     r"|DIST call hccl api failed"
     # Intel XPU's collectives (oneCCL, through torch.distributed)
     r"|\boneCCL: ",
     default_phase="startup",
     cause='NCCL failed to set up communication between GPUs.',
     steps=[
           'Rerun with NCCL_DEBUG=INFO to see the failing transport',
           'Usual fixes: --ipc=host / a large --shm-size, NCCL_P2P_DISABLE=1 on GPUs without P2P, '
           'NCCL_SOCKET_IFNAME, NCCL_DMABUF_ENABLE=0 on some IB setups'])


# The KV-events publisher encodes block hashes with msgpack, which takes 64-bit integers only: a prefix-caching hash
# algorithm whose hashes are wider (sha256's full digest) fails every event while requests are served.
_row("kv_events_hash_too_wide", 1, r"Error in publisher thread: can't serialize ints",
     cls="config_invalid", default_phase="runtime",
     cause="The KV-events publisher cannot encode the prefix cache's block hashes: the prefix-caching hash algorithm "
           "gives hashes wider than 64 bits (sha256), which the events' msgpack encoding cannot carry.",
     steps=["While --kv-events-config publishes events, pick a prefix-caching hash algorithm whose hashes fit 64 bits "
            "(--prefix-caching-hash-algo sha256_cbor_64bit in the releases that have it, or builtin), or turn the "
            "KV events off"])
# LMCache's multiprocess server answers its vLLM connector's requests by type; a type it has no handler for is a
# connector of another LMCache release than the server's.
_row("lmcache_server_request_type_unknown", 1, r"No handler registered for request type RequestType\.\w+",
     cls="dependency_error", default_phase="runtime",
     cause="LMCache's multiprocess server has no handler for a request type its client (the LMCache connector inside "
           "vLLM) sends: the server and the connector come from different LMCache releases.",
     steps=["Install one LMCache release in the vLLM image and in the LMCache server (compare `pip show lmcache` on "
            "both), then restart both"])
# Ray's compiled graph carries each step between the engine and its workers over mutable-object channels; one that
# breaks while serving is a node, its raylet or the network between them going away.
_row("ray_compiled_graph_channel_failed", 1, r"Error pushing mutable object|mutable object provider",
     cls="ray_error", default_phase="runtime",
     cause="A Ray compiled-graph channel between the engine and a worker broke while serving: the worker's node, "
           "its raylet or the network between the nodes went away.",
     steps=["Check `ray status` and the lost node's raylet and dmesg logs (OOM kill, network drop)",
            "Rerun with VLLM_USE_RAY_COMPILED_DAG=0 to tell a compiled-graph bug from a lost node"])
# pynccl loads NCCL itself (VLLM_NCCL_SO_PATH or the libnccl.so.2 beside torch); a library it cannot load leaves the
# GPUs without the communicator tensor-parallel ranks talk through.
_row("nccl_library_not_loaded", 2, r"Failed to load NCCL library from \S+",
     cls="nccl_error", default_phase="load",
     cause="vLLM's NCCL wrapper could not load the NCCL library it names: missing, built for another CUDA than this "
           "PyTorch, or not loadable on this platform.",
     steps=["Point VLLM_NCCL_SO_PATH at the libnccl.so.2 of the NCCL that this PyTorch was built with (the "
            "nvidia-nccl wheel in the same environment), or reinstall that wheel; `python -c 'import torch; "
            "print(torch.cuda.nccl.version())'` names the version"])
_row("ray_error", 2,
     # (a RayTaskError wrapping a plain Python exception is the task's own error, raised in its code: not Ray's; one
     # wrapping Ray's own exceptions, an owner, object, worker or node lost, is Ray's)
     r"RayActorError|ray\.exceptions\.(?!RayTaskError\((?!Ray|ActorDied|ActorUnavailable|OwnerDied|ObjectLost"
     r"|ObjectFetchTimedOut|ObjectReconstructionFailed|WorkerCrashed|NodeDied|LocalRayletDied|ObjectStoreFull"
     r"|GetTimeout|RuntimeEnvSetup)\w+\))|RaySystemError|Ray cluster|[Rr]aylet"
     r"|Failed to (?:connect to|start) GCS"
     # Ray's head bringing up its own services (a local instance started for the executor)
     r"|Failed to start the dashboard",
     default_phase="load",  # Ray's workers are created, and die, while the engine is built
     cause='The Ray cluster the executor runs on failed or is incomplete.',
     steps=[
           'Check `ray status` (all nodes and GPUs present), the head address, and that every node runs the '
           'same vLLM and Ray versions'])


# A Ray task that failed importing a module: the worker's environment lacks a package (a trainer's rollout worker on a
# node whose venv differs), whatever task it ran.
_row("ray_task_module_missing", 2, r"RayTaskError\((?:ModuleNotFoundError|ImportError)\)",
     cls="dependency_error", default_phase="load",
     cause="A Ray task failed importing a module: the Python environment on that Ray worker lacks a package, or holds "
           "a version the caller was not written for.",
     steps=["Read the task's traceback for the module it names; install it (at the caller's pinned version) in the "
            "environment every Ray node runs, or ship it with the job's runtime_env"])


# vLLM's platform detection found no platform its build supports on this host: a CUDA build where no GPU or NVML
# is visible (a CPU-only host, a container given none), a TPU or XPU build without its runtime package.
_row("platform_not_detected", 1, r"Failed to infer device type",
     cls="dependency_error", default_phase="load",
     cause="vLLM could not tell which device to run on: the installed build's platform (CUDA, ROCm, TPU, XPU, CPU) "
           "is not usable on this host, for want of a visible GPU and its driver or of the platform's runtime "
           "package.",
     steps=["Install the vLLM build for this host's hardware (the CPU build on a host without GPUs; torch_xla for "
            "TPU), or make the GPUs visible to the process (`nvidia-smi` in the same container; "
            "CUDA_VISIBLE_DEVICES not empty); VLLM_LOGGING_LEVEL=DEBUG shows each platform's probe"])


# vLLM maps CUDA_VISIBLE_DEVICES to integer device indices: a GPU's or a MIG instance's UUID there (what Kubernetes'
# device plugin and MIG setups often export) fails that parse.
_row("visible_devices_uuid", 1, r"invalid literal for int\(\) with base 10: '(?:MIG|GPU)-[0-9a-fA-F-]+'",
     cls="config_invalid", default_phase="load",
     cause="CUDA_VISIBLE_DEVICES names devices by UUID (a MIG instance's or a GPU's), and this vLLM expects integer "
           "indices there.",
     steps=["Set CUDA_VISIBLE_DEVICES to the devices' integer indices (nvidia-smi -L lists them), or run a vLLM "
            "release that accepts UUIDs; one process sees one MIG instance"])


_row("gpu_driver_mismatch", 1,
     r"Error 804|forward compatibility was attempted|driver version is insufficient|CUDA driver version"
     r"|nvidia-container-cli|update your driver|NVIDIA driver on your system is too old|Found no NVIDIA driver"
     # libcuda.so named, but not as a line of `ldd` output that found it
     r"|no CUDA-capable device|libcuda\.so(?![\d.]*\s+(?:=>\s+/|\(0x))|cudaErrorInsufficientDriver"
     r"|CUDA_ERROR_NO_DEVICE|Failed to initialize NVML|NVML_ERROR|cudaGetDeviceCount"
     # torch finding no GPU in this process (CUDA_VISIBLE_DEVICES empty, a container or pod given none)
     r"|No CUDA GPUs are available",
     default_phase="startup",
     cause='The GPU driver and the CUDA runtime in the vLLM build do not work together (driver too old, '
           'forward-compat libraries on an unsupported GPU, or no GPU visible).',
     steps=[
           'Check `nvidia-smi` on the host and the driver the vLLM/torch build needs; upgrade the driver or '
           'use a vLLM build for the installed CUDA',
           'In containers: the NVIDIA runtime must expose the GPUs; do not mount forward-compat libs on '
           'non-datacenter GPUs'])


_row("gpu_arch_not_in_build", 1,
     r"no kernel image is available for execution on the device|sm_\d+ is not compatible with the current "
     r"PyTorch installation|cudaErrorNoKernelImageForDevice",
     default_phase="startup",
     cause="The vLLM/torch build has no kernels compiled for this GPU's architecture (compute capability).",
     steps=[
           'Install a vLLM and torch build compiled for this GPU (check torch.cuda.get_arch_list() against '
           'nvidia-smi --query-gpu=compute_cap), or run on GPUs the build supports'])


# Building vLLM's CPU backend on a processor whose instruction set it has no kernels for: CMake stops at its ISA check
# ("vLLM CPU backend requires AVX512 ISA support.", later releases listing AVX2, Power9+, S390X, ARMv8 and RISC-V).
_row("cpu_isa_unsupported", 1, r"vLLM CPU backend requires (?:AVX|X86|\w+ ISA)",
     cls="gpu_arch_unsupported", default_phase="load",
     cause="vLLM's CPU backend was being built for a processor without an instruction set it supports (the message "
           "lists them): this CPU lacks it, or the build runs where its flags are hidden (a VM without the host's CPU "
           "flags, an emulated architecture).",
     steps=["Check the CPU's flags (lscpu | grep -o 'avx512[a-z_]*\\|avx2' on x86) against the message's list",
            "Build a vLLM release whose CPU backend lists this instruction set, or run on a host that has one it "
            "lists; in a VM, pass the host's CPU model through"])


# An optional kernel extension of vLLM's (FlashMLA's) was not compiled into this build: its message says the nvcc
# was too old or the GPU's architecture was not among the build's targets.
_row("kernel_extension_not_built", 1,
     r"_flashmla_C is not available|FlashMLA is (?:not available|only supported on)",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="A kernel library this model's attention needs (FlashMLA) is not in this vLLM build for this GPU: it was "
           "not compiled, for an nvcc too old or a GPU architecture outside the build's targets.",
     steps=["Use a vLLM build whose kernels cover this GPU (FlashMLA needs Hopper or newer in upstream builds), or "
            "choose another attention backend for the model (VLLM_ATTENTION_BACKEND)"])


# Triton compiling an fp8 (e4m3, "fp8e4nv") kernel for a GPU without fp8 support (compute capability below 8.9):
# an fp8 KV cache or fp8 weights on a V100, T4 or A100.
_row("triton_fp8_unsupported_on_gpu", 1, r"type fp8e4nv not supported in this architecture",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="Triton cannot build fp8 (e4m3) kernels for this GPU: fp8 needs compute capability 8.9 or newer, and an "
           "fp8 KV cache (--kv-cache-dtype fp8) or fp8 weights asked for them.",
     steps=["On this GPU leave the KV cache in the model's dtype (drop --kv-cache-dtype fp8) and serve a checkpoint "
            "that is not fp8, or run on GPUs of compute capability 8.9 or newer"])


# The compiler refusing an instruction for the GPU architecture it targets: kernels written for a newer GPU (vLLM's
# ROCm kernels' inline assembly on gfx906) built for one that lacks the instruction.
_row("instruction_not_on_gpu", 1, r"error: instruction not supported on this GPU",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="Kernels being compiled use an instruction the target GPU architecture does not have: this vLLM's kernels "
           "do not support this GPU (an older ROCm or CUDA architecture than the sources are written for).",
     steps=["Build or install a vLLM release that still supports this GPU architecture (its docs list the supported "
            "gfx/sm targets), or leave it out of the build targets (PYTORCH_ROCM_ARCH, TORCH_CUDA_ARCH_LIST) and "
            "run on a supported GPU"])


_row("rocm_math_library_unreadable", 2,
     r"(?:rocblaslt|hipBLASLt|rocBLAS) error: (?:Could not load|Cannot read) \S*TensileLibrary",
     default_phase="startup",  # read at the first matrix multiply: the profiling run
     cause="ROCm's math library (rocBLAS/hipBLASLt) could not read its kernel file for this GPU: a broken or "
           "partial ROCm/torch install, a library path mismatch between the container and the host, or a "
           "process limit (open files, memory maps) with many workers.",
     steps=[
           "Check the file it names exists and is readable inside the container; reinstall the ROCm torch wheel "
           "or use the vLLM ROCm image as built",
           "If it fails only with more GPUs (TP 8): raise `ulimit -n` and vm.max_map_count, and check "
           "HIP_VISIBLE_DEVICES"])


_row("worker_start_method", 1,
     # (and the same for the other devices' runtimes: torch_npu's "Cannot re-initialize NPU", XPU's)
     r"Cannot re-initialize (?:CUDA|NPU|XPU|MLU|MUSA) in forked subprocess"
     r"|start a new process before the current process has "
     r"finished its bootstrapping phase"
     # (Python wraps that message over lines under a bare "RuntimeError:")
     r"|An attempt has been made to start a new process before the\s*$"
     # spawn hands the engine's configuration to the new process by pickling it: a class defined inside a function
     # (a library's patched config) cannot be
     r"|Can't pickle local object"
     # the engine was built inside a daemonic process (a multiprocessing Pool's or a DataLoader's worker), which
     # Python forbids to start the engine's own worker processes
     r"|daemonic processes are not allowed to have children",
     default_phase="load",  # raised by the worker's first CUDA call (init_device), as the engine starts
     cause='The worker processes were started the wrong way (CUDA initialised before fork, an entry point '
           'without a __main__ guard under spawn, an engine argument spawn cannot pickle, or an engine built '
           'inside a daemonic process, which may not start children).',
     steps=[
           'Set VLLM_WORKER_MULTIPROC_METHOD=spawn and launch through an entry point that guards `if __name__ '
           '== "__main__"` (the deployer\'s kimi-vllm wrapper does)',
           "If an object cannot be pickled: pass the engine plain arguments (a library that patches vLLM's classes "
           "inside a function needs its release for this vLLM), or run the engine in-process "
           "(VLLM_ENABLE_V1_MULTIPROCESSING=0)"])
# A program that imports vLLM under a guard (try/except ImportError) and goes on: its later use of vLLM's names fails
# with a NameError, and the import's own error is gone.
_row("vllm_import_guarded_away", 2, r"NameError: name '(?:LLM|SamplingParams|AsyncLLMEngine|LLMEngine|"
     r"AsyncEngineArgs|EngineArgs)' is not defined",
     cls="dependency_error", default_phase="load",
     cause="The program imported vLLM under a guard and the import failed (vLLM missing, or built for another torch "
           "or CUDA); its later use of vLLM's classes then fails with a NameError.",
     steps=["Run `python -c 'import vllm'` in the same environment: its error is the cause (install the vLLM wheel "
            "for this torch and CUDA, or the caller's pinned vLLM)"])
# The same for another library's class (a CamelCase name such as transformers' BaseModelOutputWithPast) or vLLM's
# compiled ops module (vllm_cache_ops): the import that should have defined it failed under a guard, or the installed
# release of that library no longer has the name.
_row("library_import_guarded_away", 2, r"NameError: name '(?:[A-Z][a-z0-9]+[A-Z]\w*|vllm_\w*ops)' is not defined",
     cls="dependency_error", default_phase="load",
     cause="A name the code imports from a library is not defined: the import failed under a guard (the library "
           "missing, or built for another torch or CUDA), or the installed release of the library does not have it.",
     steps=["Import the library in the same environment (`python -c 'from <module> import <name>'`): its error, or "
            "the release that has the name, is the cause; install the versions the calling project pins"])
# V1 runs no per-request logits processors (V0 did): a request, or a caller that builds its SamplingParams with them,
# is refused.
_row("v1_per_request_logits_processors", 1, r"V1 does not support per request user provided logits processors",
     cls="request_invalid", default_phase="runtime",
     cause="A request asked for per-request logits processors, which vLLM's V1 engine does not run.",
     steps=["Drop logits_processors from the request's SamplingParams; on V1, load them for the whole engine "
            "(--logits-processors, in the V1 releases that have it) and switch them on per request through extra "
            "args, or pin the caller to the vLLM whose V0 engine it was written for"])


@_rule("mamba_cache_blocks_below_max_num_seqs", 1,
       r"max_num_seqs \((\d+)\) exceeds available Mamba cache blocks \((\d+)\)", default_phase="startup")
def _mamba_blocks(hit: _Hit) -> Finding:
    seqs, blocks = int(hit.match.group(1)), int(hit.match.group(2))
    return Finding(
        cause=f"A hybrid (linear-attention/Mamba) model needs one state block per running sequence: "
              f"max_num_seqs {seqs} is more than the {blocks} blocks that fit.",
        steps=[f"Lower max_num_seqs from {seqs} to {blocks} (or less)",
               f"Or {_raise_utilisation(hit)} for more cache blocks"],
        parameter_changes={"max_num_seqs": blocks})


@_rule("batched_tokens_below_max_model_len", 1,
       r"max_num_batched_tokens \((\d+)\) is smaller than max_model_len \((\d+)\)", default_phase="load")
def _batched_tokens(hit: _Hit) -> Finding:
    batched, length = int(hit.match.group(1)), int(hit.match.group(2))
    return Finding(
        cause=f"Without chunked prefill, max_num_batched_tokens ({batched}) must be at least max_model_len "
              f"({length}).",
        steps=[f"Raise max_num_batched_tokens to {length}, enable chunked prefill, or lower max_model_len to "
               f"{batched}"])


# V1's encoder budget: one multimodal item (an image's tokens) must fit in a step's batch when chunked multimodal
# input is off.
@_rule("batched_tokens_below_mm_item", 1,
       r"max_tokens_per_mm_item \((\d+)\) is larger than max_num_batched_tokens \((\d+)\)", default_phase="load")
def _batched_tokens_mm(hit: _Hit) -> Finding:
    item, batched = int(hit.match.group(1)), int(hit.match.group(2))
    return Finding(
        cause=f"One multimodal item takes up to {item} tokens, more than max_num_batched_tokens ({batched}), and "
              "chunked multimodal input is off.",
        steps=[f"Raise max_num_batched_tokens to at least {item}, or lower the item's size (the processor's "
               "max_pixels / --mm-processor-kwargs)"])


_row("custom_allreduce_failed", 1, r"custom_all_reduce\.cuh|[Cc]ustom all.?reduce (?:failed|error)"
     # the kernel's own "Failed: Cuda error <file>:<line>", even cut inside the file's name
     r"|Failed: Cuda error \S*custom_all_red"
     # CUDA refusing peer access between two of the GPUs, which the custom all-reduce's IPC buffers need
     r"|peer access is not supported between these two devices",
     cls="custom_allreduce", default_phase="startup",
     cause="vLLM's custom all-reduce kernel failed (CUDA IPC / peer access between the GPUs does not work "
           "here: PCIe topology, containers, or a GPU the kernel was not built for).",
     steps=["Start with --disable-custom-all-reduce (tensor parallelism falls back to NCCL all-reduce)",
            "Check peer access with `nvidia-smi topo -m`; in containers use --ipc=host",
            "If it began with a vLLM upgrade, roll back to the previous release and pin it"])
_row("cuda_os_call_failed", 1, r"OS call failed or operation not supported on this OS|cudaErrorOperatingSystem",
     cls="driver_or_runtime", default_phase="runtime",
     cause="The CUDA runtime could not make an operating-system call it needs (pinned host memory, IPC): WSL, or a "
           "container without the privileges or limits for it.",
     steps=["Run on a native Linux host, or give the container --ipc=host, a large --shm-size and an unlimited "
            "memlock ulimit; on WSL, pinned memory is limited"])


# HAMi's CUDA hook (a GPU-sharing layer on Kubernetes) prints its own errors: vLLM runs on its virtual devices.
_row("gpu_sharing_layer_failed", 1, r"\[HAMI-core ERROR",
     cls="driver_or_runtime", default_phase="load", quiet_levels=True,
     cause="The GPU-sharing layer under vLLM (HAMi's vGPU hook) failed: it intercepts the CUDA calls and did not "
           "handle what vLLM asked of it (NCCL's device setup, CUDA IPC, memory accounting).",
     steps=["Run vLLM on whole GPUs (no vGPU fraction) to confirm, then upgrade HAMi or report it there with "
            "this log"])
# The NVIDIA driver logs a GPU's faults to the kernel log as Xid events (`dmesg`, often quoted in issues): 13, 31 and
# 43 are a kernel's own fault (an exception, an MMU fault); the others below are the GPU itself, its memory (ECC), its
# NVLink or its firmware.
_row("gpu_xid_kernel_fault", 1, r"NVRM: Xid \([^)]*\): (?:13|31|43),",
     cls="gpu_kernel_fault", default_phase="runtime", quiet_levels=True,
     cause="The NVIDIA driver reports a GPU kernel's fault (Xid 13/31/43: an illegal address or an MMU fault): a "
           "kernel bug for this model, GPU or parallel layout.",
     steps=["Start with --enforce-eager to rule out CUDA-graph capture, and with CUDA_LAUNCH_BLOCKING=1 to name the "
            "kernel",
            "If it began with a vLLM upgrade, roll back to the previous release and pin it"])
_row("gpu_xid_hardware", 1, r"NVRM: Xid \([^)]*\): (?:48|6[1-4]|74|79|9[2-5]|119|120),",
     cls="driver_or_runtime", default_phase="runtime", quiet_levels=True,
     cause="The NVIDIA driver reports a fault of the GPU itself (an Xid for ECC memory errors, NVLink, the GPU "
           "falling off the bus or its firmware): not vLLM's.",
     steps=["Drain the node: check `nvidia-smi -q -d ECC,PAGE_RETIREMENT` and `dmesg | grep Xid`, reset or replace "
            "the GPU, then redeploy"])
# The driver cannot load PTX that a newer CUDA toolkit compiled (cudaErrorUnsupportedPtxVersion): the kernels were
# built for a CUDA release newer than the host's NVIDIA driver supports.
_row("ptx_newer_than_driver", 1, r"the provided PTX was compiled with an unsupported toolchain"
     r"|cudaErrorUnsupportedPtxVersion",
     cls="driver_or_runtime", default_phase="startup",
     cause="The NVIDIA driver is older than the CUDA toolkit that compiled these kernels' PTX, so it cannot JIT them "
           "for this GPU.",
     steps=["Upgrade the NVIDIA driver to one that supports the CUDA release of the installed vLLM/torch (the "
            "`nvidia-smi` header shows the highest it supports), or install the build for the driver's CUDA "
            "release"])


@_rule("gpu_kernel_fault", 1,
       r"illegal memory access|device-side assert|unspecified launch failure|cudaErrorIllegalAddress"
       r"|misaligned address|CUDA error: (?!out of memory|operation not permitted when stream is capturing)"
       # (a kernel library's own CUDA check macro: "CUDA error (csrc/smxx/mla_combine.cu:201): invalid configuration
       # argument", a launch this kernel cannot make for the shape it was given)
       r"|CUDA error \([^()\s]+:\d+\): (?!out of memory)"
       r"|AcceleratorError"
       # CUDA's core dump on a kernel's exception (CUDA_ENABLE_COREDUMP_ON_EXCEPTION, or the lightweight core dump
       # vLLM's CI turns on) names the exception and the kernel before any Python error is raised
       r"|Detected an exception of type CUDBG_EXCEPTION_\w+"
       # ROCm's runtime prints the fault itself, outside any traceback
       r"|Memory access fault by GPU node"
       # Ascend: a kernel's fault surfaces asynchronously when the stream is synchronised (as CUDA's does)
       r"|ACL stream synchronize failed|The Inner error is reported as above"
       # Intel GPUs: Level Zero reports the faulted device as lost when its queue or an event is waited on
       r"|UR_RESULT_ERROR_DEVICE_LOST|ZE_RESULT_ERROR_DEVICE_LOST",
       default_phase="runtime")
def _kernel_fault(hit: _Hit) -> Finding:
    steps = []
    if re.search(r"custom_all_reduce|custom all.?reduce", hit.run_text()):
        steps.append("Start with --disable-custom-all-reduce (the fault is in the custom all-reduce kernel)")
    steps += ["Start with --enforce-eager to rule out CUDA-graph capture",
              "If it began with a vLLM upgrade, roll back to the previous release and pin it"]
    return Finding(cause="A GPU kernel faulted (illegal memory access / device assert): a vLLM kernel bug "
                         "for this model, GPU or parallel layout.",
                   steps=steps)


# A CANN operator's own check of its inputs' shapes ("expert count is: 128, but currently only support 256.
# [FUNC:CheckInputShape]"): the NPU kernel does not cover this model's shape (its experts, heads or sizes), which the
# first forward pass, the memory profile, meets.
_row("ascend_operator_shape_unsupported", 1, r"but currently only supports? \d+|\[FUNC:CheckInputShape\]",
     cls="architecture_unsupported", default_phase="startup",
     cause="An NPU operator of this CANN release does not support this model's shape (its check names the value and "
           "what it supports), so the model cannot run on this NPU with these kernels.",
     steps=["Check vllm-ascend's supported-models list and release notes for this model on this NPU; a newer CANN or "
            "vllm-ascend release may cover the shape",
            "Where vllm-ascend offers another implementation of the layer (an eager or non-fused path), try it"])


# torch_npu's wrapper of a failed ACL call ("ERR00100 PTA call acl api failed"): a kernel's fault when nothing more is
# said, but CANN writes the error it wraps on the next lines (an allocation failure, EL0004), which then ranks first.
_row("ascend_acl_call_failed", 2, r"PTA call acl api failed",
     cls="gpu_kernel_fault", default_phase="runtime",
     cause="An Ascend ACL call failed inside torch_npu (a kernel's fault on the NPU); the CANN error it wraps, when "
           "the log shows it, follows on the next lines.",
     steps=["Read the CANN error code after the line (EL/EE codes; the plog under ~/ascend/log has the rest); rerun "
            "with ASCEND_LAUNCH_BLOCKING=1 to find the failing operator",
            "Start with --enforce-eager (no graph mode) to rule out graph capture"])


# A stream synchronisation on the NPU failing with a CANN code: an operator queued before it faulted (the code names
# how: 507011 and 507014 are stream and task exceptions), reported where the host waited on the stream (torch_npu's
# words, or the CANN runtime's own when its rtStreamSynchronize call, or a copy queued behind the faulted operator,
# returns the code: "rtMemcpyAsyncEx execution failed, reason=the model stream execute failed").
_row("ascend_stream_sync_failed", 2, r"AclrtSynchronizeStream\w*\(|ACL stream synchronize failed"
     r"|rtStreamSynchronize\w* execution failed|synchronize stream with timeout failed"
     r"|execution failed, reason=the model stream execute failed",
     cls="gpu_kernel_fault", default_phase="runtime",
     cause="Waiting on an NPU stream failed: an operator queued on it before the wait faulted on the device (the CANN "
           "error code says how).",
     steps=["Look the error code up in CANN's error-code list and read the plog under ~/ascend/log for the operator; "
            "rerun with ASCEND_LAUNCH_BLOCKING=1 so the failing operator raises where it runs",
            "Start with --enforce-eager (no graph mode) to rule out graph capture"])
# CANN's watchdog on a device task: the task ran past its time limit (a hung collective, an operator that never
# finished), not an operator's wrong result. HCCL's task exception handler says the same of a collective's task
# ("[TaskExecStage][Timeout][AICPU]Task run failed").
_row("ascend_task_timed_out", 1, r"The execution of the internal task times out|\[TaskExecStage\]\[Timeout\]",
     cls="timeout", default_phase="runtime",
     cause="A task on the NPU ran past CANN's time limit: a collective waiting on a rank that never came (a hung or "
           "slower peer), or an operator that did not finish.",
     steps=["Read the plog under ~/ascend/log on every rank for the task that hung; check the other ranks were alive "
            "and in the same step (HCCL's own log names the peer)",
            "If steps are just long (very long prompts, a first compile), raise HCCL_EXEC_TIMEOUT"])


# A hosting platform's own start deadline (Cloud Run's revision check): the container did not listen on its port in
# time, so the platform gave up on a server that was most likely still loading.
_row("platform_start_deadline_exceeded", 1,
     r"failed to start and listen on the port defined .{0,80}within the allocated timeout",
     cls="timeout", default_phase="startup",
     cause="The hosting platform stopped waiting for the server to listen on its port: loading and compiling took "
           "longer than the platform's start-up timeout (or the server listens on another port).",
     steps=["Raise the platform's start-up or health-check timeout to cover weight loading and compilation",
            "Check the server listens on the port the platform gives (--port $PORT); keep the weights and compile "
            "caches on fast storage close to the container"])


@_rule("timeout_waiting_for_engine", 1,
       # (the variable's name in the message, not its setting listed by collect_env: "VLLM_ENGINE_READY_TIMEOUT_S=600")
       r"Timed out waiting for engine|VLLM_ENGINE_READY_TIMEOUT_S(?!=)|did not become ready|start operation timed out"
       r"|Failed with result 'timeout'"
       # a wrapper's readiness wait running out ("vllm-server failed to start within timeout")
       r"|failed to start (?:in time|within (?:the )?(?:timeout|time limit))|not ready (?:after|within) \d+"
       # a hosting platform's limit on a container's start (Modal: "Runner has been initializing for too long")
       r"|initializing for too long",
       default_phase="load")
def _engine_timeout(hit: _Hit) -> Finding:
    waited = re.search(r"Waited (\d+)\s*s", hit.line.message)
    how_long = f" after {waited.group(1)} s" if waited else ""
    return Finding(
        cause=f"The server did not become ready in time{how_long}: weights still loading, or a cold "
              "compile/JIT cache.",
        steps=["Raise VLLM_ENGINE_READY_TIMEOUT_S, and make the unit's TimeoutStartSec and the deploy's "
               "health wait at least as long",
               "Keep the compile caches (VLLM_CACHE_ROOT, ~/.cache/flashinfer) across restarts and releases; "
               "use fast local storage for the weights"])


# vLLM's configuration refusing two options together ("Chunked prefill is not supported with multi-step
# (--num-scheduler-steps > 1)"); the V1 engine's own refusals are the next rule's.
_row("option_combination_unsupported", 3,
     r"(?:ValueError|NotImplementedError): .{0,80}\bis not (?:supported|compatible) with (?!(?:the )?V[01]\b|vLLM\b)",
     cls="config_invalid", default_phase="load",
     cause="vLLM refused a combination of options its release cannot run together (the error names both).",
     steps=["Drop one of the two options named in the error, or use a vLLM release that supports them together"])


# Expert-parallel load balancing (--enable-eplb) refused while the model is built: by the model's own code or a
# platform's list of models (vllm-ascend's eplb/utils.py), or by the MoE layers' quantization method.
_row("eplb_unsupported_by_quantization", 1, r"EPLB is not supported (?:for )?\w+Method\b",
     cls="quantization_unsupported", default_phase="load",
     cause="Expert-parallel load balancing (--enable-eplb) is not implemented for the MoE layers' quantization method "
           "(the error names it).",
     steps=["Start without --enable-eplb (and without num_redundant_experts), or use a checkpoint whose quantization "
            "supports EPLB in this release"])
_row("eplb_unsupported_by_model", 1,
     r"EPLB is not supported(?:\.?[\"')]*\s*$| for (?:this|the) model)|\b(?:Model|model) \S+ does not support EPLB",
     cls="architecture_unsupported", default_phase="load",
     cause="Expert-parallel load balancing (--enable-eplb) is not implemented for this model in this vLLM release or "
           "platform plugin.",
     steps=["Start without --enable-eplb (and without num_redundant_experts)",
            "Or use a release whose notes list EPLB for this model"])


# The V1 engine class constructed while VLLM_USE_V1 reads 0: a framework that builds V1's LLM / AsyncLLM itself (an RL
# trainer's rollout server) with the environment variable set the other way, or a platform that forces V0.
_row("v1_engine_with_v1_disabled", 1, r"Using V1 (?:Async)?LLM(?:Engine)?, but envs\.VLLM_USE_V1=False",
     cls="config_invalid", default_phase="load",
     cause="The V1 engine was built while VLLM_USE_V1 says 0: the caller constructs V1's engine class and the "
           "environment (or the platform) selects V0.",
     steps=["Unset VLLM_USE_V1 or set it to 1 for this process (the trainer's or wrapper's environment too)",
            "Or use the vLLM release the framework pins"])
# A platform plugin's model runner that samples on the device ignores the grammar bitmask: structured outputs
# (guided decoding) cannot be honoured, and xgrammar then fails to advance its FSM on the unconstrained tokens.
_row("structured_output_with_device_sampling", 1,
     r"Structured outputs are not supported with on-device sampling",
     cls="config_invalid", default_phase="runtime",
     cause="Structured outputs (guided decoding) were requested while the platform samples on the device, which "
           "ignores the grammar: the outputs are not constrained.",
     steps=["Turn on-device sampling off for this model (the platform plugin's setting), or serve the structured "
            "requests from an instance without it"])


# xgrammar refusing a token the model sampled under a request's grammar ("Failed to advance FSM for request ... Please
# file an issue", then the scheduler's "grammar rejected tokens ... Terminating request"): only requests run grammars,
# and the reasons the trackers give differ (speculative or MTP tokens, async scheduling, min_tokens forcing a token the
# grammar forbids, a tool parser's grammar), so no class; a named cause above (on-device sampling) wins.
# (xgrammar's matcher refusing a token it treats as special, raised inside the model execution: "Token id 0: <unk>
# is regarded as a special token, and cannot be accepted by the GrammarMatcher", not a kernel's fault)
_row("structured_output_token_rejected", 2, r"Failed to advance FSM for request|grammar rejected tokens \["
     r"|cannot be accepted by the GrammarMatcher",
     cls="unknown", default_phase="runtime",
     cause="The structured-output grammar (xgrammar) rejected a token the model generated for a request, and vLLM "
           "ended that request: the grammar and the decoding disagree.",
     steps=["Retry the request without speculative decoding, async scheduling or min_tokens, one at a time, to find "
            "which one disagrees with the grammar",
            "Upgrade vLLM and xgrammar; report the request (its schema or tools) with the log if it persists"])


@_rule("unsupported_engine_option", 3,
       r"is not supported by the V1 Engine|not supported (?:on|with|in) (?:the )?V1|Falling back to V0",
       default_phase="startup", quiet_levels=True)
def _v1_option(hit: _Hit) -> Finding:
    option = re.search(r"(--[\w-]+)", hit.line.message)
    named = f" ({option.group(1)})" if option else ""
    return Finding(cause=f"An option the V1 engine does not support was set{named}.",
                   steps=["Remove the option (V1 chooses its own behaviour, e.g. always preempts by recompute)"])


# The attention backend's implementation does not take a feature argument the model's layers pass it (gpt-oss's
# attention sinks, ALiBi slopes, a soft cap, a sliding window, KV sharing, Llama 4's interleaved RoPE layers): the
# backend in this build lacks it.
_row("attention_backend_feature_argument_unknown", 1,
     r"\w+Impl\.__init__\(\) got an unexpected keyword argument '(?:sinks|alibi_slopes|logits_soft_cap|sliding_window"
     r"|kv_sharing_target_layer_name|attn_type|use_irope)'",
     cls="attention_backend_unsupported", default_phase="load",
     cause="The selected attention backend does not accept a feature the model's attention layers need (the "
           "argument named): this backend, in this build, cannot run the model.",
     steps=["Use a vLLM build whose attention backends support the model (its recipe names the release), or choose "
            "a backend that has the feature with VLLM_ATTENTION_BACKEND / --attention-backend"])
# vLLM's attention backend calls FlashAttention's entry points with the arguments of the build it was released with;
# a flash-attn of another release (a separately installed package, or vLLM's own vllm_flash_attn from another build)
# does not take one of them ('num_splits', 'dynamic_causal')
_row("flash_attn_build_mismatch", 1, r"\b_?flash_attn\w*\(\) got an unexpected keyword argument",
     cls="dependency_error", default_phase="startup",
     cause="vLLM passed FlashAttention an argument the installed FlashAttention build does not take: the flash-attn "
           "kernels and vLLM's Python code come from different releases.",
     steps=["Reinstall the vLLM wheel (it bundles the vllm_flash_attn it was built with) and uninstall a separately "
            "installed flash-attn that shadows it, or install the flash-attn version this vLLM release requires"])
_row("attention_backend_unsupported", 1,
     r"Head dimension \d+ is not supported|No valid attention backend|is not supported by (?:MLA|FlashAttention"
     r"|FlashInfer|the attention backend)|Cannot use \w+ backend",
     default_phase="load",
     cause="No attention kernel of this vLLM build supports the model's attention shape on this hardware.",
     steps=[
           'Choose another attention backend (VLLM_ATTENTION_BACKEND / --attention-backend) or hardware/vLLM '
           'release that supports the head size'])


# ----- runtime: requests -------------------------------------------------------------------------

@_rule("request_over_context_length", 1,
       r"maximum context length is (\d+)|longer than the maximum model length(?: of)? (\d+)|max_tokens must be at "
       r"least 1, got -?\d+|cannot be greater than max_model_len|'max_tokens' or 'max_completion_tokens' is too large"
       # a hardware fork's own limit for a model on its device (Tenstorrent's: "does not support prompts longer than
       # 8192 tokens on N300")
       r"|does not support prompts longer than (\d+) tokens",
       default_phase="runtime")
def _over_context(hit: _Hit) -> Finding:
    limit = next((int(g) for g in hit.match.groups() if g), None) or hit.param("max_model_len")
    asked = re.search(r"(?:requested|contains|has|length) (?:at least )?(\d+)(?: input)? (?:tokens|\))",
                      hit.line.message)
    detail = f" ({asked.group(1)} tokens against a limit of {limit})" if asked and limit else (
        f" (limit {limit})" if limit else "")
    return Finding(
        cause=f"A request's prompt + max_tokens exceeded max_model_len{detail}; vLLM answered HTTP 400. The "
              "server itself is healthy.",
        steps=["Clients must keep prompt + max_tokens <= max_model_len: truncate or shorten the prompt, cap "
               "max_tokens; an acceptance long-input test should expect 400, not 500",
               "Only if such long inputs are needed: raise max_model_len, if the KV cache holds it (check the "
               "'Maximum concurrency' log line)"])


# A client's own report of the server's 4xx answer (the OpenAI SDK's "Error code: 400 - {...}", a coding agent's
# "API Error: 400 ...", an HTTP library's "request failed with status 422"): the server was up and refused that
# request. The weakest reading of a request's error: a rule that names what was refused (a tool flag, the context
# length, a chat template) wins, and a line quoting vLLM's own JSON error body is read as the server answering.
_row("client_reports_request_refused", 3,
     # (a line quoting vLLM's own error object is the server's answer itself: read by the healthy-answer path)
     r"^(?!.*[\"']object[\"']: ?[\"']error[\"'])(?:.*?)(?:"
     r"\bAPI Error: (?:400|404|413|422)\b|\b[Rr]equest failed with status:? (?:400|404|413|422)\b"
     r"|\bError: (?:400|404|413|422) status code\b|\w+Exception: (?:400|404|413|422) - \{"
     r"|\bError code: (?:400|404|413|422) - \{)",
     cls="request_invalid", default_phase="runtime",
     cause="A client reports that the server refused its request with an HTTP 4xx: the request (its body, messages, "
           "parameters or model name) is not one this server accepts; the server itself was up and answering.",
     steps=["Read the error body the client quotes (vLLM names the field, the limit or the missing flag) and fix the "
            "request or the client's settings (the served model name, max_tokens, message roles, tool options)",
            "If every client gets it, compare the request with the route's schema at /docs and with the flags the "
            "server was started with (--served-model-name, --enable-auto-tool-choice, --chat-template)"])


_row("request_preprocessing_failed", 2, r"Error in preprocessing prompt inputs|jinja2\.exceptions\.Template\w*Error"
     # V0's API server, when a request's messages do not fit the chat template ("roles must alternate"); V1's
     # when the template itself raised on a request's messages
     r"|Error in applying chat template from request|An error occurred in .transformers. while applying chat template"
     # a request that asks to continue its last (assistant) message, which the chat template does not end with
     r"|continue_final_message is set but the final message does not appear in the chat",
     cls="request_invalid",
     default_phase="runtime",
     cause="A request failed validation before it reached the engine (prompt longer than the context, a bad "
           "chat template or parameters); the server answered it with a 400 and kept serving.",
     steps=["Read the client's 400 response (it carries the message); fix the request or raise max_model_len "
            "if long prompts are expected"])
# The OpenAI server fetches and decodes a request's images, audio or video before the engine sees it; a URL it cannot
# reach or data it cannot decode fails that request only
_row("request_media_load_failed", 2, r"Error in loading multi-modal data"
     # (the server's HTTP client fetching an image URL from a named host: aiohttp's connection error, a TLS
     # certificate it cannot verify; not a proxy's connection to a backend's local port)
     r"|Cannot connect to host (?!localhost\b)[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}:\d+ ssl:",
     cls="request_invalid", default_phase="runtime", server_side=True,
     cause="A request's multimodal input (an image, audio or video URL or data) could not be fetched or decoded; that "
           "request failed, the server kept serving.",
     steps=["Check the URL is reachable from the server (proxy, DNS, --allowed-local-media-path for file URLs) and the "
            "data decodes; clients can send the media inline as base64"])
# vLLM's video loader decoding fewer frames than the container promised ("assert i == num_frames" under
# multimodal/video.py): a video whose frame count metadata overstates what decodes; that request fails.
_row("request_video_frames_short", 1, r"^(?:\w+\.)*AssertionError\s*$", context=r"assert i == num_frames",
     cls="request_invalid", default_phase="runtime",
     cause="A request's video decoded fewer frames than its container reports, and vLLM's video loader asserts the "
           "count; that request failed.",
     steps=["Re-encode the video (constant frame rate, e.g. ffmpeg -r 30) before sending it, or upgrade to a vLLM "
            "release whose video loader tolerates short videos"])
# A multimodal request's prompt and its media disagree: the processor finds no placeholder token to replace with an
# image's features ("Expected there to be 1 prompt updates corresponding to 1 image items, but instead found 0"), or
# the model's HF processor raises on the request's data.
_row("request_multimodal_prompt_mismatch", 2,
     r"Expected there to be \d+ prompt updates? corresponding to \d+ \w+ items|Failed to apply prompt replacement "
     r"for mm_items|Failed to apply \w*Processor on data="
     # V0's merge of the media's embeddings into the prompt: more media tokens than the prompt has placeholders for
     # (their count as a product, or as a sum over the items: "338 + 320 + ... = 8655")
     r"|Attempted to assign (?:\d+ x \d+ = |\d+(?: \+ \d+)+ = )?\d+ (?:multimodal|image) tokens to \d+ placeholders"
     # (or one item's, "119 = 119", to a prompt that has placeholders: one with none is as often a chunk of the prompt
     # chunked prefill or the profile run made as a request's)
     r"|Attempted to assign \d+ = \d+ (?:multimodal|image) tokens to [1-9]\d* placeholders",
     cls="request_invalid", default_phase="runtime",
     cause="A multimodal request could not be turned into the model's inputs: its prompt lacks the placeholder "
           "token for an image (or has too many), or the model's processor failed on its media (size, count, "
           "format).",
     steps=["Send images through the chat API's content parts (the chat template inserts the placeholders), or "
            "put the model's image placeholder in a raw prompt once per image",
            "Check the request's media against --limit-mm-per-prompt and the processor's size limits "
            "(--mm-processor-kwargs)"])
# The processor replacing a modality's placeholders runs out of that modality's items (a placeholder per image with
# fewer images, a model's grid table indexed past its size): the request's prompt and its media disagree.
_row("request_multimodal_placeholder_without_item", 2,
     r"IndexError: index \d+ is out of bounds for dimension 0 with size \d+",
     context=r"\b(?:_iter_modality_placeholders|get_replacement_\w+)\b",
     cls="request_invalid", default_phase="runtime",
     cause="A multimodal request's prompt holds more placeholders of a modality than the media items it sent: the "
           "processor indexed past the last item while replacing them.",
     steps=["Send one image placeholder per image (or the media through the chat API's content parts, where the "
            "chat template inserts them), and check the framework building the prompt adds no extra placeholder"])
# A request carrying more images (audio, videos) than --limit-mm-per-prompt allows ("At most 1 image(s) may be
# provided in one request. You can set `--limit-mm-per-prompt` to increase this limit if the model supports it.";
# later releases: "You set image=2 (or defaulted to 1) in `--limit-mm-per-prompt`, but passed 3 image items in the
# same prompt.")
_row("request_media_over_limit", 2, r"At most \d+ \w+\(s\) may be provided in one (?:request|prompt)"
     r"|in `?--limit-mm-per-prompt`?, but passed \d+ \w+ items in the same prompt",
     cls="request_invalid", default_phase="runtime",
     cause="A request carried more media items of one kind than --limit-mm-per-prompt allows; vLLM refused it and "
           "kept serving.",
     steps=["Raise --limit-mm-per-prompt for that modality (it reserves memory for that many items per request, so "
            "check the KV cache again), or have clients send fewer items per request"])
# vLLM reads VLLM_PORT as a port number; Kubernetes injects VLLM_PORT=tcp://<ip>:<port> into every pod of a namespace
# that has a Service named "vllm", so the engine fails on the variable as it starts: int() refuses it, under a frame
# reading VLLM_PORT, or (newer releases) vLLM's own check says so.
# vLLM checks the VLLM_* variables it is given against the ones it knows (validate_environ); in its strict form, which
# vLLM's own tests use, a misspelt or retired name raises instead of logging a warning.
_row("vllm_environment_variable_unknown", 1, r"ValueError: Unknown vLLM environment variable detected: \w+",
     cls="config_invalid", default_phase="load",
     cause="A VLLM_* environment variable this release does not know (named) is set, and the environment is checked "
           "strictly: a misspelt name, one from another release, or a variable of one's own that starts with VLLM_.",
     steps=["Unset or rename the variable named (names of one's own must not start with VLLM_), or check the spelling "
            "against this release's vllm/envs.py"])
_VLLM_PORT_URL_CAUSE = ("VLLM_PORT holds a URL, not a port number: Kubernetes sets VLLM_PORT=tcp://<ip>:<port> in "
                        "every pod of a namespace with a Service named vllm, and vLLM reads the variable as its "
                        "internal port.")
_VLLM_PORT_URL_STEPS = ["Rename the Kubernetes Service (anything but vllm), or set VLLM_PORT to a free port number in "
                        "the pod's environment"]
_row("vllm_port_variable_not_a_number", 1, r"invalid literal for int\(\) with base 10: '(?:tcp|udp)://",
     context=r"VLLM_PORT", cls="config_invalid", default_phase="load", cause=_VLLM_PORT_URL_CAUSE,
     steps=_VLLM_PORT_URL_STEPS)
_row("vllm_port_variable_is_a_url", 1, r"VLLM_PORT '[^']*' appears to be a URI", cls="config_invalid",
     default_phase="load", cause=_VLLM_PORT_URL_CAUSE, steps=_VLLM_PORT_URL_STEPS)
# uvicorn's warning when bytes that are not HTTP reach the server (a client speaking TLS to its plain HTTP port, or
# another protocol): the server listens and refuses those connections.
_row("request_not_http", 3, r"Invalid HTTP request received\.", cls="request_invalid", default_phase="runtime",
     quiet_levels=True,
     cause="Connections reached the server that were not plain HTTP (most often a client or balancer speaking HTTPS to "
           "vLLM's HTTP port, or a probe of another protocol); uvicorn refused them, and the server keeps serving.",
     steps=["Point the client or balancer at http:// (or terminate TLS in front of vLLM, or start it with "
            "--ssl-keyfile/--ssl-certfile), and check health probes use HTTP on the API port"])
_row("request_token_out_of_vocabulary", 2, r"Token id -?\d+ is out of vocabulary", default_phase="runtime",
     cause='A request carried token ids outside the vocabulary; vLLM rejected it with 400.',
     steps=[
           "Fix the client's token ids (they must come from this model's tokenizer)"])


# SamplingParams checks each request's parameters as it is built ("max_tokens must be at least 1, got -186.", "best_of
# must be greater than 1 when using beam search"): the OpenAI server answers such a request with a 400, an offline
# caller gets the ValueError.
_row("request_sampling_params_invalid", 2,
     r"\b(?:n|best_of|max_tokens|min_tokens|temperature|top_p|top_k|min_p|presence_penalty|frequency_penalty"
     r"|repetition_penalty|logprobs|prompt_logprobs|truncate_prompt_tokens) must be (?:at least|greater than|in [\[(]"
     r"|non-negative|-1|0 \(disable\)|>=|positive)",
     default_phase="runtime", cls="request_invalid",
     cause="A request's sampling parameters were out of range (the message names the parameter and its bounds); vLLM "
           "refused that request and kept serving.",
     steps=["Fix the parameter client-side (the OpenAI server answers 400 with the same message), or set a default "
            "the clients inherit (--generation-config, or the model's generation_config.json)"])


# SamplingParams is a msgspec struct: a keyword it lacks raises msgspec's own "TypeError: Unexpected keyword argument
# 'use_beam_search'" (capital U). A server or wrapper passing each request's fields straight into it meets this when a
# client sends a parameter this release removed (use_beam_search went when beam search got its own API).
_row("request_sampling_param_unknown", 2, r"TypeError: Unexpected keyword argument '\w+'",
     default_phase="runtime", cls="request_invalid", context=r"SamplingParams\(",
     cause="A request carried a sampling parameter this vLLM release does not have (the message names it): the "
           "code building SamplingParams from the request's fields refused it.",
     steps=["Drop the parameter client-side (use_beam_search: use the beam-search API of this release instead), or "
            "run the vLLM release the serving wrapper was written for"])


# V1's engine core checks a request's allowed_token_ids against its logit-bias buffer only as it adds the request
# ("ValueError: Too many allowed token IDs: 2000. The max size is 1024."); the API server let it through, so one
# request's parameter killed the engine.
_row("request_allowed_token_ids_over_limit", 2, r"Too many allowed token IDs: \d+\. The max size is \d+",
     default_phase="runtime", cls="request_invalid", server_side=True,
     cause="A request's allowed_token_ids list was longer than the engine's limit; the engine core raised as it "
           "added the request, and in this release that kills the engine instead of refusing the request.",
     steps=["Have clients send at most the limit the error names in allowed_token_ids (or constrain output with "
            "structured outputs instead)",
            "Upgrade to a vLLM release that refuses such a request with a 400 before it reaches the engine"])


# The OpenAI server's request models are pydantic: a request whose fields fail them ("1 validation error for
# ChatCompletionRequest / messages.2.tool.content / Input should be a valid string") is refused with a 400; a test or
# a wrapper building the request itself gets the ValidationError.
_row("request_validation_failed", 2, r"\b\d+ validation errors? for \w+Request\b", default_phase="runtime",
     cls="request_invalid",
     cause="A request did not fit the server's request schema (the lines under the message name the field and what "
           "it should be); it was refused and the server kept serving.",
     steps=["Fix the field client-side to the form the message names, or upgrade to a vLLM release whose request "
            "schema accepts that form (e.g. a list of content parts where a string was required)"])


_row("request_unknown_field", 2, r"extra_forbidden|Extra inputs are not permitted", default_phase="runtime",
     cause='A request used a field this vLLM release does not accept (HTTP 400).',
     steps=[
           'Drop the field client-side, or upgrade vLLM to a release that accepts it'])


# xgrammar refusing a request's regex as it compiles it (V1 validates the structured-output spec of each request)
_row("structured_output_regex_invalid", 2, r"Regex parsing error at position \d+", default_phase="runtime",
     cls="request_invalid",
     cause="The structured-output backend (xgrammar) could not parse a request's regex; that request was refused.",
     steps=["Fix the regex client-side (xgrammar supports a subset of regex syntax), or serve with "
            "--guided-decoding-backend set to one that accepts it (guidance, outlines)"])


_row("request_unknown_model", 2, r"The model `[^`]*` does not exist", default_phase="runtime",
     cause='Requests name a model the server does not serve (HTTP 404).',
     steps=[
           'Use the id from GET /v1/models, or set --served-model-name to the name clients send'])


# A request asking for tool_choice "auto" from a server started without tool calling: the server answers 400 and
# keeps serving; the fix is either side's. (A gateway may pass the answer on JSON-encoded, its quotes escaped.)
_row("request_tool_choice_not_enabled", 2, r'\\?"auto\\?" tool choice requires --enable-auto-tool-choice',
     default_phase="runtime", cls="request_invalid",
     cause='Requests ask for tool_choice "auto" but the server was started without automatic tool calling (HTTP 400).',
     steps=["Start the server with --enable-auto-tool-choice and the --tool-call-parser that matches the model "
            "(e.g. hermes for Qwen, llama3_json for Llama 3.1+), or have the client send tool_choice \"none\" or a "
            "named tool"])


# FastAPI's body for a path the app has no route for (vLLM's own errors carry "object": "error"): a client calling a
# route this server does not serve (the OpenAI server's /v1/... against the demo api_server's /generate, or the reverse)
_row("request_unknown_route", 2, r'\{"detail": ?"Not Found"\}', default_phase="runtime", cls="request_invalid",
     quiet_levels=True,
     cause='A client called a route the server does not have (HTTP 404 {"detail":"Not Found"}): the client speaks '
           "another server's API, or the path or base URL is wrong.",
     steps=["List the routes the server logged at start (\"Available routes are\") and point the client at one "
            "of them: the OpenAI-compatible server (`vllm serve`) serves /v1/completions and /v1/chat/completions, "
            "the demo api_server /generate"])


# LiteLLM (the client layer of many agent tools) refuses a bare model name before any request is sent: it must say
# which provider's API to speak
# A launcher that embeds Python (Dynamo's Rust workers) fails to import vLLM's package: the interpreter it found is
# not the venv vLLM is installed in, or an import inside vLLM breaks there
_row("launcher_vllm_import_failed", 1, r"Failed to import python 'vllm' module",
     cls="dependency_error", default_phase="load",
     cause="The launcher could not import vLLM's Python package: it runs another interpreter than the venv vLLM is "
           "installed in, or a package vLLM imports is missing or broken there.",
     steps=["Run `python -c 'import vllm'` with the interpreter and environment the launcher uses (its venv, "
            "PYTHONPATH, LD_LIBRARY_PATH) and fix what that import reports"])


_row("client_provider_missing", 2, r"LLM Provider NOT provided", default_phase="load", cls="config_invalid",
     cause="The client's LiteLLM layer refused the model name: it carries no provider prefix, so no request "
           "reached vLLM.",
     steps=["Name the model as hosted_vllm/<served model name> (or openai/<served model name>) with the server's "
            "/v1 URL as api_base"])


@_rule("index_out_of_range", 1,
       r"index out of range in self|index out of bounds|srcIndex < srcSelectDimSize|indexSelect\w*Kernel",
       default_phase="runtime")
def _index_out_of_range(hit: _Hit) -> Finding:
    context = hit.context_text()
    bound = re.search(r"< (\d+)`", hit.line.message)
    if re.search(r"embedding", context, re.IGNORECASE):
        return Finding(
            cause="A token id reached the embedding table past the model's vocab_size: the tokenizer does not "
                  "match the model (its vocabulary is larger than config.json's vocab_size).",
            steps=["Serve the tokenizer that belongs to these weights (--tokenizer / the model's tokenizer "
                   "files); check len(tokenizer) <= vocab_size in config.json before starting",
                   "The engine is dead after this: restart the unit once the tokenizer is fixed"])
    limit = f" (table size {bound.group(1)})" if bound else ""
    return Finding(
        cause=f"A kernel indexed past the end of a table{limit}: positions past the model's position range "
              "(max_model_len over the derived limit, VLLM_ALLOW_LONG_MAX_MODEL_LEN) or token ids past "
              "vocab_size.",
        steps=["Keep max_model_len <= the model's derived limit (max_position_embeddings) and unset "
               "VLLM_ALLOW_LONG_MAX_MODEL_LEN",
               "Check the tokenizer matches the model (len(tokenizer) <= vocab_size); restart the unit"])


@_rule("kv_cache_preemption", 2,
       r"preempted by PreemptionMode|is preempted|not enough KV cache space|total_num_cumulative_preemption",
       default_phase="runtime", quiet_levels=True)
def _preemption(hit: _Hit) -> Finding:
    return Finding(
        cause="The KV cache fills up under concurrency, so requests are preempted and recomputed: slower, "
              "but nothing crashed.",
        steps=["Lower max_num_seqs (concurrency) or max_model_len if the traffic allows",
               f"Or {_raise_utilisation(hit)}, or add GPUs (tensor_parallel_size) for more KV cache; watch "
               "vllm:num_preemptions_total and KV usage in /metrics"])


@_rule("http_400_responses", 3, r'"(?:POST|GET|PUT) /\S+ HTTP/[\d.]+" 400', default_phase="runtime", quiet_levels=True)
def _http_400(hit: _Hit) -> Finding:
    count = len(re.findall(r'HTTP/[\d.]+" 400', hit.run_text()))
    limit = hit.param("max_model_len")
    return Finding(
        cause=f"The server answered {count} request(s) with HTTP 400 Bad Request: most often prompt + "
              f"max_tokens over max_model_len{f' ({limit})' if limit else ''} (vLLM logs only the status, not "
              "the reason). The server itself is healthy.",
        steps=["Replay a failing request and read the 400 body; clients must keep prompt + max_tokens <= "
               "max_model_len (truncate long prompts, cap max_tokens)",
               "Only if such long inputs are needed: raise max_model_len, if the KV cache holds it"])


# A reverse proxy in front of vLLM (nginx, an ingress) gave up waiting for its answer and returned 504 itself: the
# request took longer than the proxy's read timeout (a long generation, a queue, a CPU host), vLLM did not fail.
_row("proxy_upstream_timed_out", 1,
     r"upstream timed out \(110: (?:Connection|Operation) timed out\) while (?:reading response header from|connecting "
     r"to) upstream",
     cls="timeout", default_phase="runtime", quiet_levels=True,
     cause="The reverse proxy in front of vLLM timed out waiting for its response and answered 504 itself: the "
           "request took longer than the proxy's read timeout (a long generation, requests queued, a slow host).",
     steps=["Raise the proxy's read timeout (nginx proxy_read_timeout, the ingress's proxy-read-timeout annotation) "
            "above the longest request, or stream the response so bytes flow before it",
            "Check vLLM's own queue at that time (vllm:num_requests_waiting) before blaming the proxy"])


_row("http_5xx_responses", 4, r'"(?:POST|GET|PUT) /\S+ HTTP/[\d.]+" 5\d\d', default_phase="runtime", quiet_levels=True,
     cause='Requests failed with HTTP 5xx; the engine error that caused them is not in the lines read.',
     steps=[
           'Read more of the journal (raise `lines`) for the first ERROR/Traceback above the 500s; restart '
           'the unit if /health fails'])


# A field's own message ("Value error, ...") names what was rejected. pydantic's header ("1 validation error for
# ModelConfig") only says a check failed, so it reads the same only where no message under it says more: the
# architecture inspection's failure arrives as a ModelConfig "Value error" too, and is that rule's wrapper, not a flag.
_CONFIG_FIX = ["Fix the flag or config.json field the message names, then start again"]


@_rule("config_validation", 2, r"^\s*Value error, (?!Model architectures \[[^\]]*\] failed to be inspected)(.+)",
       default_phase="load")
def _config_validation(hit: _Hit) -> Finding:
    return Finding(cause=f"vLLM rejected its configuration: {hit.match.group(1)[:300]}", steps=list(_CONFIG_FIX))


@_rule("config_validation_header", 3, r"validation errors? for \w*Config", default_phase="load")
def _config_validation_header(hit: _Hit) -> Finding:
    return Finding(cause=f"vLLM rejected its configuration: {hit.line.message.strip()[:300]}", steps=list(_CONFIG_FIX))


# ----- wordings from the corpus's training part (tests/fixtures/vllm-failure-corpus) and vLLM's sources

_row("free_memory_below_utilization", 1,
     # (threads quote it with the middle elided: "Free memory on device cuda:0 (64.66/94.97 GiB) ... less than ...")
     r"Free memory on device .{0,60}(?:on startup is |\.\.\. ?)less than desired GPU memory utilization",
     cls="gpu_memory_unavailable", default_phase="startup",
     cause="Less GPU memory was free at start than gpu_memory_utilization asks for: another process (a stale "
           "vLLM, another release, a notebook) holds memory on the GPU.",
     steps=["Find the holder with `nvidia-smi --query-compute-apps=pid,used_memory --format=csv` and stop it",
            "Or lower gpu_memory_utilization to what is free (the message gives free/total)"])
# The memory profile checks that free memory fell while it ran ("Error in memory profiling. Initial free memory 23.4375
# GiB, current free memory 23.4375 GiB."). Free memory that did not move at all while the model allocated is a device
# whose memory report does not follow allocations (a GPU-sharing layer such as HAMi's vGPU); free memory that grew is
# another process on the GPU releasing memory during the profile.
_row("memory_profile_free_memory_unchanged", 1,
     r"Error in memory profiling\. Initial free memory ([\d.]+) GiB, current free memory \1 GiB",
     cls="driver_or_runtime", default_phase="startup",
     cause="The GPU's free memory did not change while vLLM allocated during its memory profile: the device's memory "
           "report does not follow allocations (a GPU-sharing or virtualisation layer such as HAMi's vGPU), so vLLM "
           "cannot size the KV cache.",
     steps=["Give vLLM a whole GPU (or one the sharing layer reports truthfully: MIG, not a memory-capped vGPU)",
            "Or set the KV cache size explicitly (--kv-cache-memory-bytes) where this release has it, instead of "
            "profiling"])
_row("memory_profile_free_memory_grew", 1,
     r"Error in memory profiling\. Initial free memory ([\d.]+) GiB, current free memory (?!\1 GiB)[\d.]+ GiB",
     cls="gpu_memory_unavailable", default_phase="startup",
     cause="Another process on the GPU released memory while vLLM was profiling its own use, so the profile's "
           "figures are wrong and vLLM stopped.",
     steps=["Run vLLM alone on its GPUs (stop the other process, or give each its own GPU or container) and start "
            "again"])
# V0's scheduler preempting by swapping (beam search, n > 1) when the preempted sequences' blocks do not fit in the
# CPU swap space: it aborts the whole step, in the middle of serving.
_row("cpu_swap_space_exhausted", 1, r"Aborted due to the lack of CPU swap space",
     cls="kv_cache_insufficient", default_phase="runtime",
     cause="The KV cache filled up and the scheduler preempted sequences by swapping their blocks to CPU memory, but "
           "the CPU swap space (--swap-space, GiB per GPU) could not hold them, so the engine aborted the step.",
     steps=["Raise --swap-space if the host has the RAM, or lower max_num_seqs (and n / best_of / beam width) so "
            "fewer sequences are preempted at once; a release with the V1 engine preempts by recomputing instead"])


# A pooling model's printed outputs (class probabilities, scores, embeddings) that are all NaN: the forward pass
# overflowed (float16 for a model trained in bfloat16) or a kernel produced NaNs, although the run finished.
_row("pooled_output_nan", 2, r"\[(?:-?nan|NaN)(?:, (?:-?nan|NaN))+\]",
     cls="sampling_nan", default_phase="runtime",
     cause="The model's outputs are NaN (every value of the printed probabilities, scores or embeddings): the forward "
           "pass overflowed, most often float16 for a model trained in bfloat16, or a kernel produced NaNs.",
     steps=["Serve the model in the dtype it was trained in (--dtype bfloat16, or float32 to check), then rerun the "
            "same inputs; if NaNs remain, rerun with --enforce-eager to rule out a compiled kernel"])


# Composable Kernel (AITER's MoE and GEMM kernels on ROCm) has no instance for this shape and quantized data type
_row("ck_gemm_problem_unsupported", 1, r"device_gemm does not support this GEMM problem",
     context=r"fp8|int8|int4|[Qq]uant|per_[Tt]ensor|per_[Tt]oken|[Bb]lock[Ss]cale",
     cls="quantization_unsupported", default_phase="startup",
     cause="AITER's Composable Kernel has no GEMM instance for this layer's shape and quantized data type on this GPU, "
           "so the quantized MoE or linear kernel cannot run.",
     steps=["Turn the AITER kernel off for this path (VLLM_ROCM_USE_AITER_MOE=0, or VLLM_ROCM_USE_AITER=0) so vLLM "
            "uses its Triton kernels, or use an AITER release that tunes this shape",
            "Or serve a quantization this GPU's kernels cover (another FP8 scheme, or bf16)"])


# The logits' last dimension is not the configured vocabulary: a draft model (EAGLE) or a checkpoint whose lm_head
# has another vocabulary than config.json's vocab_size
_row("logits_vocab_mismatch", 1, r"Expected logits to have shape \(\*, \d+\), but got",
     cls="weights_mismatch", default_phase="runtime",
     cause="The model's logits do not have the configured vocabulary size: a draft model (EAGLE) with another "
           "vocabulary than its target, or an lm_head that does not match config.json's vocab_size.",
     steps=["Use a draft model trained for this target (same tokenizer and vocabulary, or one whose draft-to-target "
            "token map vLLM supports), or fix vocab_size in config.json to match the checkpoint",
            "Upgrade vLLM if the draft's vocabulary mapping is a known fix in a later release"])


# A kernel built for some GPU generations only asserting on another (FlashAttention 4's CuTe SM100 kernels selected on
# an SM120 card: "Only SM 10.x and 11.x are supported")
_row("kernel_arch_assertion", 1, r"Only SM [\d.x]+(?:(?:,| and| or) (?:SM )?[\d.x]+)* (?:is|are) supported"
     # (a CUTLASS FP8 kernel built for SM120 only, trapping on a GB10's SM121: "This kernel only supports sm120.")
     r"|[Kk]ernel only supports [Ss][Mm]_?\d+",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="A kernel that supports only other GPU generations (as the assertion names) was selected for this GPU.",
     steps=["Select another attention backend (--attention-backend, or VLLM_ATTENTION_BACKEND in older releases) or "
            "kernel for this GPU, or upgrade vLLM to a release that no longer selects this kernel here"])


# DeepGEMM picks a kernel recipe by the GPU's architecture and asserts when it has none (it is built for SM90 and
# SM100): an FP8 model's warm-up on another GPU (an SM120 workstation card) stops there
_row("deepgemm_no_recipe_for_gpu", 1, r"\): Unknown recipe\b", context=r"deep_?gemm",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="DeepGEMM has no kernel recipe for this GPU's architecture (it supports Hopper and datacenter Blackwell), "
           "so the FP8 GEMM warm-up fails.",
     steps=["Start with VLLM_USE_DEEP_GEMM=0 so vLLM uses its other FP8 GEMM kernels on this GPU",
            "Or run the model on a GPU DeepGEMM supports (SM90, SM100)"])


# FlashInfer plans each batch in a fixed workspace buffer: a batch larger than it holds (many sequences, long prompts in
# the memory profile's dummy batch) stops the forward there.
_row("flashinfer_workspace_exhausted", 1, r"Out of workspace memory in Aligned\w*",
     cls="resource_limit", default_phase="startup",
     cause="FlashInfer's fixed workspace buffer is too small for the batch it was asked to plan (many sequences or "
           "long prompts at once).",
     steps=["Raise VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE (bytes) where this release reads it, or lower "
            "max_num_seqs / max_num_batched_tokens",
            "Or run another attention backend (VLLM_ATTENTION_BACKEND) to confirm"])
# Ascend's CANN kernels assert on their inputs in the AI core and print it to the worker's stdout ("[ASSERT]
# [CANN_VERSION : 8.1.RC1] ... gather_v3_base.h:137: Assertion ... Index 4096 out of range"): a kernel fault.
_row("ascend_kernel_assertion", 1, r"\[ASSERT\] \[CANN_VERSION : [^\]]*\].*Assertion `",
     cls="gpu_kernel_fault", default_phase="runtime",
     cause="An Ascend kernel's own assertion failed on its inputs (an index out of range, a shape it does not take): "
           "the batch reached a case the NPU kernel does not handle.",
     steps=["Note the input size that triggers it (the assertion names the kernel and the index) and cap it "
            "(max_model_len, max_num_batched_tokens) below that",
            "Upgrade CANN and vllm-ascend to releases that fix the kernel"])
# torch.compile tracing a custom op (a platform plugin's or vLLM's _C op) that registered no fake (meta) implementation:
# Dynamo cannot trace it, so graph capture or compilation fails ("_C::rotary_embedding: attempted to run this operator
# with Meta tensors, but there was no fake impl or Meta kernel registered").
_row("custom_op_without_fake_impl", 1, r"there was no fake impl or Meta kernel registered",
     cls="compile_error", default_phase="startup",
     cause="torch.compile met a custom op (the message names it) that has no fake implementation to trace with, so the "
           "model cannot be compiled or captured in graph mode.",
     steps=["Start with --enforce-eager (or the plugin's graph mode off) to serve without compiling",
            "Or upgrade the plugin or vLLM to a release that registers a fake implementation for that op"])
# AITER compiles its kernels just in time into a build directory inside its package; two processes building the same
# kernels there (a node's workers, two nodes sharing the image's path) remove each other's files.
_row("aiter_jit_build_dir_race", 2, r"OSError: \[Errno 39\] Directory not empty: '\S*aiter/jit/build/",
     cls="compile_error", default_phase="startup",
     cause="AITER's just-in-time kernel build failed cleaning its build directory: more than one process was "
           "compiling the same kernels into the same directory.",
     steps=["Run once with a single worker (or prebuild AITER's kernels in the image) so the JIT cache is complete, "
            "then start the full layout; or give each process its own AITER build directory",
            "Or disable the AITER paths (VLLM_ROCM_USE_AITER=0) to confirm"])
# AITER's own report that its just-in-time build of a kernel module failed ("failed build jit [module_moe_ck2stages]"),
# whatever error its build history shows under it: a kernel compile, not a missing package.
_row("aiter_jit_build_failed", 3, r"\bfailed build jit \[\w+\]",
     cls="compile_error", default_phase="startup",
     cause="AITER could not build one of its kernel modules just in time (hipcc failing, or several processes building "
           "the same module at once): the ROCm kernels vLLM asked for are missing.",
     steps=["Read AITER's build log above the line (the hipcc error); start once with a single worker, or prebuild the "
            "module in the image, so the JIT cache is complete before the full layout starts",
            "Or disable the AITER path that needs it (VLLM_ROCM_USE_AITER=0, or the MoE/attention switch) to confirm"])
# JAX on a multi-host TPU slice: an array placed with a sharding over the whole mesh from one process, which only
# addresses its own host's devices (a single-process executor on a multi-host mesh).
_row("jax_sharding_not_addressable", 2,
     r"device_put's second argument must be a Device or a Sharding which(?:\s+represents addressable devices)?",
     cls="parallel_config_invalid", default_phase="startup",
     cause="JAX was asked to place an array on a mesh spanning hosts this process cannot address: a multi-host TPU "
           "slice run with an executor or layout that expects one host.",
     steps=["Run one process per TPU host (the multi-host launcher the plugin documents), or size the mesh "
            "(tensor and data parallel sizes) to the devices of one host"])
# An XLA-based plugin's compiler (tt-xla's module builder) lowers the model's StableHLO graph before it runs: a
# failed pass (an op or a sharding it cannot place) stops the start there.
_row("stablehlo_pipeline_failed", 2,
     r"Failed to run stablehlo pipeline|Could not apply propagated tensor shardings to tensor dimensions",
     cls="compile_error", default_phase="startup",
     cause="The accelerator plugin's compiler could not lower the model's StableHLO graph (a pass failed on an op or "
           "a tensor sharding): the model, or its parallel layout, is not supported by this plugin release.",
     steps=["Read the 'error:' lines above it for the op (its loc) and the pass that failed",
            "Try another tensor-parallel or mesh layout, or a plugin release that supports the model"])
_row("sampling_nan", 1, r"probability tensor contains either `?inf`?, `?nan`? or element < 0",
     cls="sampling_nan", default_phase="runtime",
     cause="The sampler got NaN/inf probabilities: the model's logits overflowed (fp16 on a bf16 model, a broken "
           "quantization, or extreme temperature/top_p).",
     steps=["Serve in the checkpoint's dtype (bf16 rather than fp16), check the quantized checkpoint against the "
            "original, and avoid temperature/top_p near 0 (use greedy instead)"])
_row("cxx_compiler_missing", 1, r"InvalidCxxCompiler|No working C\+\+ compiler found|"
     r"fatal error: Python\.h: No such file or directory",
     cls="compile_error", default_phase="startup",
     cause="torch inductor compiles a C++ kernel on this host and finds no C++ compiler or no Python headers: "
           "vLLM's CPU build does so for functions it compiles even in eager mode (a TP > 1 embedding, the "
           "K2.5/K3 vision tower's position embedding on the first image).",
     steps=["Install a C++ compiler and the Python headers on the host (Debian/Ubuntu: g++ python3-dev), then "
            "restart the unit; the deploy's preflight checks for them on CPU hosts that need them"])
# (Dynamo ends its error with "You can suppress this exception and fall back to eager by setting: ...")
_row("compile_failed", 2, r"InductorError|BackendCompilerFailed|torch\._dynamo\.exc\.|CompilationError|"
     r"fall back to eager by setting|"
     r"triton\.compiler\.errors|^error: [\w./-]+\.py:\d+:\d+: "
     # vLLM's compile cache hashing what Inductor produced, which it cannot when Inductor's output is not a file
     r"|failed to get the hash of the compiled graph",
     cls="compile_error", default_phase="startup",
     cause="torch.compile (Dynamo/Inductor/Triton) failed while compiling the model.",
     steps=["Start with --enforce-eager or -O0 to skip compilation; clear VLLM_CACHE_ROOT's torch_compile_cache",
            "Check the Triton/torch build supports this GPU; report the compile error upstream"])
# LLVM aborting the process as it lowers a kernel (Triton's "LLVM ERROR: Failed to compute parent layout for slice
# layout"): a compiler failure for that kernel, dtype and GPU, printed by the native code before Python can raise.
_row("llvm_fatal_error", 2, r"^LLVM ERROR: (?!out of memory)",
     cls="compile_error", default_phase="startup",
     cause="LLVM (under Triton or torch.compile's code generation) aborted the process while compiling a kernel: a "
           "compiler failure for that kernel with this dtype and GPU, which takes the engine down.",
     steps=["Start with --enforce-eager to skip compiled graphs; if a Triton kernel of vLLM's is compiling, try "
            "another dtype (bfloat16 where the GPU has it) or attention backend",
            "Upgrade to the Triton release the installed torch pins, and report the kernel and GPU upstream"])
# torch.compile failing inside a Ray worker: Ray cannot rebuild torch's BackendCompilerFailed on the caller's side
# (its __init__ needs an argument pickling drops), so the caller sees "Failed to unpickle serialized exception" (or
# Ray's RaySystemError) over this TypeError, and the compile error itself is only in the worker's log.
_row("compile_failed_in_ray_worker", 1,
     r"BackendCompilerFailed\.__init__\(\) missing 1 required positional argument",
     cls="compile_error", default_phase="startup",
     cause="torch.compile failed in a Ray worker (BackendCompilerFailed); Ray could not unpickle that exception for "
           "the caller, so the compile error itself is only in the worker's log.",
     steps=["Read the worker's log (the Ray session's worker-*.err on its node) for the compile error",
            "Start the engine with --enforce-eager (in a trainer, its rollout's enforce_eager) to skip compilation"])
# Inductor asking for Triton and finding no working one ("TritonMissing: Cannot find a working triton installation"):
# the platform's Triton build is absent or older than this torch needs, whatever compile step asked.
_row("triton_missing", 1, r"TritonMissing|Cannot find a working triton installation",
     cls="dependency_error", default_phase="startup",
     cause="torch.compile (Inductor) needs Triton and found no working installation: the Triton build for this "
           "platform and torch (triton, pytorch-triton-rocm, pytorch-triton-xpu) is missing or too old.",
     steps=["Install the Triton build this torch pins (pip show torch names it; for XPU and ROCm the platform's own "
            "package), or start with --enforce-eager / -O0 to skip compilation"])
# Triton's bundled LLVM failing an internal assertion as it compiles a kernel ("/root/.triton/llvm/.../SmallVector.h:
# 298: ... Assertion `idx < size()' failed."): a compiler bug for this kernel on this GPU, whatever model runs.
_row("triton_llvm_assertion", 2, r"\.triton/llvm/\S+:\d+:",
     cls="compile_error", default_phase="startup",
     cause="Triton's bundled LLVM failed an internal assertion while compiling one of vLLM's Triton kernels for this "
           "GPU: a compiler bug for that kernel and architecture.",
     steps=["Upgrade Triton with the torch release it pairs with (or the vLLM image that ships them), or avoid the "
            "kernel: another attention backend, --enforce-eager for compiled graphs"])
# A kernel library that builds its kernels on first use (FlashInfer, DeepGEMM, a torch C++/CUDA extension) runs ninja;
# its failure is the build's, whatever the wrapper around it says.
# A kernel library that builds its kernels on first use (FlashInfer, torch's C++ extensions) needs ninja on the PATH
_row("kernel_build_tool_missing", 1,
     r"ninja \(build tool\) not found|Ninja is required to load C\+\+ extensions"
     # (the library running ninja and finding no binary: "FileNotFoundError: [Errno 2] No such file or directory:
     # 'ninja'")
     r"|No such file or directory: '(?:[^']*/)?ninja'",
     cls="dependency_error", default_phase="load",
     cause="A kernel library must build its kernels on first use and the ninja build tool is not installed (or "
           "not on the PATH of the serving process).",
     steps=["Install ninja in the serving venv (pip install ninja) and make sure the unit's PATH includes the "
            "venv's bin/, or use the library's prebuilt kernels"])
# pip building vLLM itself from source (no prebuilt wheel matched the platform, Python or CUDA, or an editable
# install): ninja failing under pip's build environment is that build's, not a kernel library's build at start.
_row("vllm_source_build_failed", 1,
     r"CalledProcessError: Command '\['ninja'|ninja: build stopped: subcommand failed",
     # (or, in the traceback the failure caused, vLLM's own setup.py, which pip runs for an editable install)
     context=r"pip-build-env-|pip-install-|Building (?:wheel|editable) for vllm|running build_ext"
             r"|<pip-setuptools-caller>|/vllm/setup\.py\", line \d+, in <module>", context_chained=True,
     cls="unknown", default_phase="unknown",
     cause="pip was building vLLM itself from source and its compile failed: the compiler's or nvcc's error is "
           "above pip's summary (a GPU architecture, CUDA toolkit or compiler the sources do not support, or a "
           "compiler killed for memory).",
     steps=["Install a prebuilt vLLM wheel that matches the host's Python and CUDA instead of building (pip falls "
            "back to the source archive when none matches); for an editable checkout, VLLM_USE_PRECOMPILED=1 reuses "
            "the compiled kernels of a released build",
            "If it must be built: read the first 'error:' or 'FAILED:' line above, set TORCH_CUDA_ARCH_LIST to the "
            "GPUs in use, and lower MAX_JOBS when compilers are killed"])
# torch's extension builder reads torch.version.cuda to compare it with nvcc's: it is None in a torch built without
# CUDA (the CPU wheel pip picked for the build's isolated environment), so building vLLM's CUDA kernels stops there.
_row("build_torch_without_cuda", 1, r"^\s*TypeError: expected string or bytes-like object, got 'NoneType'",
     context=r"parse\(torch\.version\.cuda\)|in _check_cuda_version",
     cls="dependency_error", default_phase="load",
     cause="vLLM's CUDA kernels were being built against a torch without CUDA (torch.version.cuda is None): pip's "
           "isolated build environment installed torch's CPU wheel, or the host's torch is a CPU build.",
     steps=["Install a prebuilt vLLM wheel for the host's Python and CUDA instead of building it",
            "If it must be built: install torch's CUDA wheel first and build with --no-build-isolation so the build "
            "uses it (python -c 'import torch; print(torch.version.cuda)' must print a version)"])
# uv's own summary of an install it could not finish (a wheel it could not download, build or unpack: a source build
# of vLLM or a dependency, a nightly wheel whose metadata does not match its file name); the reason is on the lines
# under it ("Caused by:", "╰─▶").
_row("uv_install_failed", 3,
     r"^\s*(?:error: Failed to (?:install|download|build|fetch)\b|\u00d7 Failed to (?:download|build|fetch)\b)",
     cls="dependency_error", default_phase="load",
     cause="uv could not install the environment: a package (named on the line) failed to download, build or "
           "install, so vLLM or one of its dependencies is missing.",
     steps=["Read uv's 'Caused by:' / '╰─▶' lines under it for the reason (no wheel for this Python, CUDA or platform, "
            "a source build's error, a wheel whose metadata does not match its name)",
            "Pin the versions vLLM's release was built with (torch and its index) or install a prebuilt vLLM wheel "
            "for this host instead of building"])
# pip's own summary of that build, when the compiler's lines are not shown
_row("vllm_source_build_summary", 3,
     r"Building (?:wheel|editable) for vllm \(pyproject\.toml\)(?: \.\.\.)? error"
     r"|Failed (?:to build|building (?:wheel|editable) for) vllm\b"
     r"|Failed to build installable wheels for some pyproject\.toml based projects \([^)]*\bvllm\b",
     cls="unknown", default_phase="unknown",
     cause="pip could not build vLLM from source on this host; the reason is in the build's output above pip's "
           "summary, which these lines do not show.",
     steps=["Install a prebuilt vLLM wheel that matches the host's Python and CUDA instead of building, or show the "
            "build's first 'error:' or 'FAILED:' line (pip install -v)"])
# numba caches a compiled function next to its source file; in a read-only install (a container's site-packages) it
# finds nowhere to write and raises at import ("cannot cache function 'create_fsm_info': no locator available for
# file '.../outlines/fsm/regex.py'"), so what imports it (outlines' guided decoding, under vLLM's server) fails.
_row("numba_cache_unwritable", 1, r"cannot cache function '?[\w.]+'?: no locator available for file",
     cls="config_invalid", default_phase="load",
     cause="numba could not cache a function it compiles (a library vLLM imports, such as outlines, asks it to): the "
           "package's directory is not writable and no cache directory is set, so the import fails.",
     steps=["Set NUMBA_CACHE_DIR to a directory the service's user can write (for example under the service's cache "
            "root) and start again"])
# A CUDA library loaded without a symbol its caller looks up ("Invalid handle. Cannot load symbol cublasLtGetVersion"):
# two builds of the library (torch's wheels, the system toolkit, another package's) are mixed in one process.
_row("cuda_library_symbol_missing", 1, r"Cannot load symbol (?:cublas|cudnn|cusparse|cufft|curand|nccl|nvrtc|cu)\w*",
     cls="dependency_error", default_phase="load",
     cause="A CUDA library was loaded without a symbol its caller needs (the line names it): a different build of "
           "that library (the system toolkit's, another package's) is found before the one torch was built with.",
     steps=["Check which copy is loaded (LD_LIBRARY_PATH, ldconfig -p | grep the library) and let torch's own wheels "
            "(nvidia-* packages) come first; install the vLLM and torch builds for one CUDA release"])
# pip asking a source tree for its build requirements (vLLM's setup.py run in pip's isolated build environment, before
# anything compiles) and the tree's code failing there: torch absent from that environment, CUDA_HOME or the target
# device unset, a setuptools or setuptools-scm the sources do not accept. The traceback under pip's summary names which.
_row("build_requirements_failed", 3,
     r"Getting requirements to build (?:wheel|editable) (?:\.\.\. error|did not run successfully)",
     cls="dependency_error", default_phase="load",
     cause="pip could not get the build requirements of the package it was building from source (vLLM itself for an "
           "editable install or a source archive): its setup code failed before anything compiled, in pip's isolated "
           "build environment, so nothing was installed.",
     steps=["Install a prebuilt vLLM wheel for this host's Python, CUDA and platform instead of building it",
            "If it must be built: read the traceback under pip's summary; install torch first and build with "
            "--no-build-isolation, set CUDA_HOME (or VLLM_TARGET_DEVICE for another platform), and use the "
            "setuptools and setuptools-scm versions the release's pyproject.toml names"])
# pip's summary of a dependency it had to build from source and could not (xformers, flash-attn): no prebuilt wheel
# of the version vLLM pins matches this host's Python, torch, CUDA or platform, so installing vLLM fails with it
# BuildKit checks every file a COPY or a bind mount names before it runs a step; a path that is not in the build
# context (the wrong directory, a checkout whose requirements moved) stops the image build there.
_row("image_build_context_file_missing", 2,
     r'failed to compute cache key: failed to calculate checksum of ref \S+ "[^"]+": not found',
     cls="config_invalid", default_phase="load",
     cause="The image build names a file (quoted) that is not in the build context: the build runs from another "
           "directory than its Dockerfile expects, or the checkout does not have that file.",
     steps=["Run the build from the directory its Dockerfile expects (the repository root for vLLM's Dockerfiles), "
            "check that the quoted path exists in that checkout (requirements files move between releases) and that "
            ".dockerignore does not exclude it"])
_row("dependency_wheel_build_failed", 3,
     r"Failed building wheel for (?!vllm\b)[\w.-]+\s*$"
     # (pip's own lines for that build, before its summary: "Building wheel for llvmlite (pyproject.toml) ... error")
     r"|Building wheel for (?!vllm\b)[\w.-]+ \(pyproject\.toml\)(?: \.\.\. error| did not run successfully)"
     r"|Failed to build installable wheels for some pyproject\.toml based projects \((?![^)]*\bvllm\b)[^)]*\)",
     cls="dependency_error", default_phase="load",
     cause="pip had to build one of vLLM's dependencies from source (the package it names: no prebuilt wheel of the "
           "pinned version fits this host's Python, torch, CUDA or platform) and the build failed, so vLLM was not "
           "installed.",
     steps=["Install the vLLM release whose pinned dependencies have wheels for this host (its Python, torch and "
            "CUDA), or install that dependency's matching prebuilt wheel first; on a platform without wheels, build it "
            "with its own instructions (the first 'error:' line above pip's summary says why it failed)"])
# CMake could not run the build tool it was given (pip's build environment had no working ninja binary)
_row("build_tool_missing", 1, r"^\s*'[^']*\bninja(?:\.exe)?' '--version'\s*$",
     cls="dependency_error", default_phase="load",
     cause="CMake could not run the ninja build tool while building vLLM's extensions: ninja is missing from the "
           "build environment, or the binary pip installed there does not run on this host.",
     steps=["Install ninja (pip install ninja, or the distribution's ninja-build) and build again, or install a "
            "prebuilt vLLM wheel"])
# A compiler error in vLLM's own C++/CUDA/HIP sources (csrc/) while building it: the sources do not compile against the
# installed torch, toolkit or compiler (a main-branch checkout ahead of the torch it was built with, a ROCm or CUDA
# release it does not support). Rows that name the reason (an instruction the GPU lacks) are tier 1 and win.
_row("vllm_source_compile_error", 2, r"/csrc/\S+\.(?:cu|cuh|hip|cpp|cc|h|hpp):\d+:\d+: error: ",
     cls="dependency_error", default_phase="load",
     cause="vLLM's own C++/CUDA/HIP sources failed to compile: they do not match the installed torch, toolkit or "
           "compiler (the first 'error:' line names the file and what is missing).",
     steps=["Build the vLLM release made for the installed torch and toolkit (its requirements pin torch), or install "
            "a prebuilt wheel; on a main-branch checkout, install the torch version its requirements name"])
# pip refuses to install into a Python the distribution manages (PEP 668: Debian 12, Ubuntu 23.04 and later, Fedora),
# or a --user install inside a virtualenv: nothing was installed, so vLLM is missing or stays at its old version.
_row("pip_externally_managed_environment", 1, r"^\s*error: externally-managed-environment\s*$",
     cls="dependency_error", default_phase="load",
     cause="pip refused to install into the system Python, which the distribution marks as externally managed "
           "(PEP 668): vLLM was not installed.",
     steps=["Install vLLM into a virtual environment (python3 -m venv or uv venv) or a container and run it from "
            "there, rather than overriding the system Python with --break-system-packages"])
_row("pip_user_install_in_virtualenv", 1,
     r"Can not perform a '--user' install\. User site-packages are not visible in",
     cls="dependency_error", default_phase="load",
     cause="pip refused a --user install inside a virtual environment (its user site-packages are not visible "
           "there): the package was not installed.",
     steps=["Install without --user inside the virtual environment (check PIP_USER and pip's config for user = true)"])
# The NVIDIA kernel driver could not allocate memory for the GPU (its NVRM lines in dmesg or the console): on a
# unified-memory system (GB10, GH200's shared pool) the model, the KV cache and the host share that memory.
_row("gpu_driver_out_of_memory", 2, r"NVRM: .*\bOut of memory \[NV_ERR_NO_MEMORY\]|\[NV_ERR_NO_MEMORY\]",
     cls="gpu_oom", default_phase="startup",
     cause="The NVIDIA kernel driver ran out of memory for the GPU (NV_ERR_NO_MEMORY): the allocation vLLM asked "
           "for did not fit; on unified-memory systems the host's own use counts against it.",
     steps=["Lower --gpu-memory-utilization, --max-model-len or --max-num-seqs (one at a time) and leave memory to the "
            "host on unified-memory systems; check dmesg for the driver's lines around the failure"])
# nvcc refuses a host compiler newer (or older) than its CUDA toolkit supports: crt/host_config.h stops the build with
# "#error -- unsupported GNU version!" (clang and MSVC likewise) before any of vLLM's own sources compile.
_row("host_compiler_unsupported_by_nvcc", 1,
     r"#error -- unsupported (?:GNU|clang|Microsoft Visual Studio) version!",
     cls="dependency_error", default_phase="load",
     cause="nvcc refused the host C/C++ compiler: its version is outside the range this CUDA toolkit supports "
           "(crt/host_config.h), so the CUDA extensions could not be built.",
     steps=["Build with a compiler version the CUDA toolkit supports (install it and point CC, CXX and "
            "NVCC_CCBIN/CUDAHOSTCXX at it), or use a newer CUDA toolkit, or install a prebuilt wheel instead of "
            "building"])
# The C/C++ compiler cannot find a header: the toolchain's standard library (macOS without its command line tools'
# SDK) or a library's development headers are not installed.
_row("build_header_missing", 1,
     r"fatal error: '[\w./+-]+' file not found|fatal error: [\w./+-]+: No such file or directory",
     cls="dependency_error", default_phase="load",
     cause="The C/C++ compiler could not find a header it needs: the compiler's standard library headers or a "
           "library's development headers are not installed where the build looks.",
     steps=["Install the headers the error names (the compiler's SDK or command line tools, the -dev/-devel package "
            "of the library, the CUDA toolkit's includes) or point the build at them (CPATH, CUDA_HOME), or install "
            "a prebuilt wheel"])
_row("kernel_jit_build_failed", 1,
     r"CalledProcessError: Command '\['ninja'|ninja: build stopped: subcommand failed|Error building extension '"
     # nvcc's own error in a source the JIT compiles ("flashinfer/data/cutlass/include/cute/arch/mma_sm90.hpp(6108):
     # error: static assertion failed with ...")
     r"|/(?:flashinfer|deep_gemm)/\S*\.(?:cuh?|hpp|h)\(\d+\): error: ",
     cls="compile_error", default_phase="startup",
     cause="A kernel library's just-in-time build (FlashInfer, DeepGEMM or another torch extension, built with ninja "
           "on first use) failed: no CUDA compiler (nvcc) or headers on the host, a compiler that cannot target this "
           "GPU, or a stale build cache from another version.",
     steps=["Read the compiler's error above the ninja line; check `nvcc --version` and CUDA_HOME match the CUDA "
            "that torch was built with",
            "Clear the library's JIT cache (e.g. ~/.cache/flashinfer), or install its prebuilt kernels, or choose "
            "another backend (VLLM_ATTENTION_BACKEND, the sampler's VLLM_USE_FLASHINFER_SAMPLER=0)"])
# Triton's kernel cache read while another process (a tensor-parallel rank compiling the same kernel) was still
# writing it: the temporary file named in the error is gone by the time it is read.
_row("triton_cache_race", 1, r"(?:FileNotFoundError|No such file or directory).{0,40}[/\\]\.triton[/\\]cache[/\\]",
     cls="compile_error", default_phase="startup",
     cause="Triton's kernel cache was read while another process compiling the same kernel was still writing it "
           "(tensor-parallel ranks sharing one cache directory, or a cache on a network filesystem without atomic "
           "renames).",
     steps=["Give each process its own TRITON_CACHE_DIR on a local disk (or warm the cache with one rank first), "
            "then restart; the kernels compiled by the run that got further are reused"])
# Ascend's graph engine (GE, torchair's graph mode) failing to load the graph it compiled for the model
_row("ascend_graph_load_failed", 1, r"Load graph failed, error code|Failed to execute init graph",
     cls="compile_error", default_phase="startup",
     cause="Ascend's graph engine could not load the graph compiled for the model (torchair graph mode): a CANN, "
           "torch_npu and vllm-ascend mismatch or an operator the graph mode does not support.",
     steps=["Start in eager mode (--enforce-eager, or torchair's graph mode off in --additional-config) to confirm",
            "Match CANN, torch_npu and vllm-ascend to the versions vllm-ascend's release names"])
_row("hip_arch_not_in_build", 1, r"HIP error: invalid device function|hipErrorInvalidDeviceFunction"
     r"|hipErrorNoBinaryForGpu|hipErrorInvalidImage|No compatible code objects found"
     # a kernel library's code object HIP cannot load on this GPU (hipErrorInvalidKernelFile, as DeepEP reports it)
     r"|hipErrorInvalidKernelFile|'invalid kernel file'"
     # rocBLAS without a kernel library for the GPU's target ("TensileLibrary.dat: ... for GPU arch : gfx1150")
     r"|TensileLibrary\S*: .*for GPU arch ?: ?gfx",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="The ROCm build has no kernel (code object) for this GPU's architecture (gfx target).",
     steps=["Use a vLLM/torch ROCm build that lists this GPU's gfx target (rocminfo | grep gfx against "
            "PYTORCH_ROCM_ARCH), or run on a supported GPU; HSA_OVERRIDE_GFX_VERSION only for close consumer "
            "targets"])
_row("hip_runtime_error", 1, r"HIP error: (?!out of memory|no kernel image|invalid device function)|hipError"
     r"|No HIP GPUs are available"
     r"(?!InvalidDeviceFunction|NoBinaryForGpu|InvalidImage)",
     cls="driver_or_runtime", default_phase="startup",
     cause="The ROCm/HIP runtime failed (no GPU visible to the container, a ROCm build that does not match the "
           "driver, or a GPU this build does not support).",
     steps=["Check `rocm-smi` and that /dev/kfd and /dev/dri are passed to the container (video/render groups)",
            "Use the ROCm vLLM image built for the installed ROCm and GPU (HSA_OVERRIDE_GFX_VERSION only for "
            "consumer GPUs)"])
# Ascend's runtime calling the NPU driver and failing ("get platform info failed, drvErr=87"; newer CANN: "[drv api]
# halMemGetInfo failed: device_id=0, type=1, drvRetCode=17", "reason=driver error:no valid device"): the device is not
# usable from this process (not passed to the container, held by another, or a driver the CANN release does not fit).
_row("npu_driver_call_failed", 1, r"\bfailed, drvErr=\d+|\[drv api\] \w+ failed: .{0,80}?drvRetCode=\d+"
     r"|execution failed, reason=driver error:",
     cls="driver_or_runtime", default_phase="startup",
     cause="Ascend's runtime could not use the NPU driver (the driver call returned the drvErr code): the device is "
           "not passed to this container, is held by another process, or the driver does not fit the CANN release.",
     steps=["Check `npu-smi info` inside the container and that /dev/davinci<N>, /dev/davinci_manager, /dev/devmm_svm "
            "and /dev/hisi_hdc are passed; one NPU cannot be shared by two containers",
            "Match the driver and firmware to the CANN release of the vllm-ascend image"])
_row("gpu_capability_too_low", 1, r"GPUs with compute capability below [\d.]+ are not supported"
     r"|does not support (?:the )?V1|V1 .{0,40}not supported on .{0,40}(?:GPU|compute capability)",
     cls="gpu_arch_unsupported", default_phase="load",
     cause="The GPU's compute capability is below what this vLLM build supports.",
     steps=["Run on a supported GPU, or pin an older vLLM release that still supports it"])
# vLLM's CUTLASS scaled matmul (FP8/INT8 W8A8) built without a kernel for this GPU's compute capability
_row("cutlass_kernel_not_built_for_gpu", 1, r"No compiled cutlass_scaled_mm for",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="This vLLM build has no CUTLASS scaled-matmul kernel (FP8/INT8 W8A8) for the GPU's compute capability.",
     steps=["Use a vLLM build compiled for this GPU's compute capability (TORCH_CUDA_ARCH_LIST including it), or "
            "serve an unquantized or weight-only quantized checkpoint the GPU's kernels cover"])
_row("kernel_needs_newer_gpu", 1, r"only supports (?:Ampere|Hopper|Blackwell|Turing|Volta) GPUs or newer",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="A kernel the model runs (FlashAttention most often) needs a newer GPU architecture than this one.",
     steps=["Choose a backend that runs on this GPU (VLLM_ATTENTION_BACKEND=XFORMERS or TRITON_ATTN on pre-Ampere "
            "GPUs), or run on a newer GPU"])
_row("gpu_runtime_abort", 1, r"Abort was called at \d+ line in file",
     cls="driver_or_runtime", default_phase="startup",
     cause="The GPU's compute runtime aborted the process (Intel's NEO runtime prints this line): the driver, the "
           "runtime and the GPU do not fit.",
     steps=["Check the GPU is visible to the runtime (`clinfo`, `sycl-ls`, /dev/dri passed to the container)",
            "Match the compute runtime and driver to the versions the vLLM build was made for"])
# vLLM picks a kernel for each quantized linear layer from those its build has; when none fits it lists every kernel's
# reason ("Failed to find a kernel that can implement the WNA16 linear layer. Reasons: MacheteLinearKernel requires
# capability 90 ... input_size_per_partition = 14784 is not divisible by min_thread_k = 128").
_row("quantized_linear_no_kernel", 1, r"Failed to find a kernel that can implement the \w+ linear layer",
     cls="quantization_unsupported", default_phase="load",
     cause="No kernel in this vLLM build can run the checkpoint's quantized linear layers on this GPU with this "
           "layout; the lines after this one give each kernel's reason (compute capability, a weight partition not "
           "divisible by the kernel's tile at this tensor-parallel size, the activation dtype).",
     steps=["Read each kernel's reason: for a partition that does not divide, choose a tensor_parallel_size that "
            "splits the layer evenly; for capability, run on a newer GPU or serve another quantization",
            "For an activation-dtype reason, serve with the dtype the kernel names (e.g. --dtype float16)"])
# Marlin's (or another quantized kernel's) tile: the layer's slice on each GPU must be a multiple of it.
_row("quantized_partition_not_divisible", 1,
     r"output_size_per_partition = \d+ is not divisible by\s+min_thread_n = \d+"
     r"|input_size_per_partition = \d+ is not divisible by\s+min_thread_k = \d+",
     cls="quantization_unsupported", default_phase="load",
     cause="A quantized layer's slice on each GPU is not a multiple of the kernel's tile (the message gives both): "
           "the kernel cannot run this checkpoint at this tensor-parallel size.",
     steps=["Choose a tensor_parallel_size that splits the layer into multiples of the tile, or serve a checkpoint "
            "quantized for another kernel (or unquantized)"])
_row("fp8_needs_newer_gpu", 1, r"FP8 quantized models is only supported on GPUs with compute capability"
     r"|_scaled_mm is only supported on devices with compute capability",
     cls="quantization_unsupported", default_phase="load",
     cause="The checkpoint is FP8, and this GPU (or this torch build) has no FP8 matrix-multiply kernel for its "
           "compute capability.",
     steps=["Serve a bf16/fp16 or an INT8/INT4 (AWQ, GPTQ) checkpoint on this GPU, or run on a GPU with FP8 "
            "support (compute capability 8.9/9.0 and newer)"])
# Gemma 2's attention logits soft-capping, which some attention backends do not implement ("Torch SPDA does not
# support logits soft cap.", "XFormers does not support attention logits soft capping.")
_row("attention_soft_cap_unsupported", 1, r"does not support (?:attention )?logits soft[ -]?cap",
     cls="attention_backend_unsupported", default_phase="load",
     cause="The model uses attention logits soft-capping (Gemma 2 and its kin) and the attention backend vLLM chose "
           "does not implement it.",
     steps=["Select a backend with soft-capping (VLLM_ATTENTION_BACKEND=FLASHINFER, or FLASH_ATTN on a release "
            "whose FlashAttention has it), or a vLLM release whose backend for this platform supports it"])
# The paged-attention kernels are built for a few KV block sizes ("Unsupported block size: 256").
_row("kv_block_size_unsupported", 1, r"Unsupported block size: \d+",
     cls="config_invalid", default_phase="runtime",
     cause="--block-size is a size the attention kernels of this build were not compiled for; the first forward "
           "pass that reads the KV cache fails.",
     steps=["Drop --block-size (vLLM picks a supported one) or use 16 or 32, which every CUDA kernel supports"])
# CUDA graph capture forbids loading a module or synchronising with the host; a Triton kernel compiled or loaded for
# the first time inside the capture, or a model's forward reading a tensor back on the CPU, fails ("operation not
# permitted when stream is capturing", as Triton's error or as torch's CUDA error).
_row("kernel_loaded_during_graph_capture", 1, r"operation not permitted when stream is capturing",
     cls="compile_error", default_phase="startup",
     cause="Something CUDA graph capture forbids ran while vLLM captured graphs: a kernel (Triton's, most often) "
           "compiled or loaded for the first time, a shape the warmup did not run first, or a host synchronisation "
           "in the model's code (a tensor read back on the CPU inside forward).",
     steps=["Start with --enforce-eager to confirm, then serve a release whose warmup covers that kernel, or narrow "
            "the captured sizes (--compilation-config cudagraph_capture_sizes) to those warmed up"])
# AITER (ROCm) picks a precompiled assembly kernel per shape and dtype; for a combination it has none of (a BF16 query
# over an FP8 KV cache, a head count per KV head it was not built for) its MLA or attention call fails at the first
# forward ("get_heuristic_kernel_mla: cannot get heuristic kernel! q_type:bf16 kv_type:fp8 gqa:16 ...").
_row("aiter_kernel_not_available", 1, r"get_heuristic_kernel\w*: cannot get heuristic kernel",
     cls="attention_backend_unsupported", default_phase="startup",
     cause="AITER has no kernel for this attention shape and dtype on this GPU (the line names the query and KV "
           "dtypes and heads per KV head): the ROCm attention backend cannot run the model as configured.",
     steps=["Change the combination the line names one variable at a time: the KV cache dtype (--kv-cache-dtype "
            "auto), the tensor-parallel size (heads per rank), or the attention backend (VLLM_ROCM_USE_AITER_MLA=0 "
            "or another backend)", "Or use the ROCm image whose AITER release lists the kernel"])
_row("head_size_unsupported", 1, r"[Hh]ead[ _]size \(?\d+\)? is not supported|Unsupported head size"
     r"|does not support headdim|<= headDim <=",
     cls="attention_backend_unsupported", default_phase="load",
     cause="The model's attention head size has no kernel in this vLLM build.",
     steps=["Choose another attention backend (VLLM_ATTENTION_BACKEND) or a vLLM release that supports the "
            "head size"])
# The CUDA toolkit's runtime libraries a wheel links against (a CUDA 12 build on a host or image with only CUDA 11's,
# or without the pip-installed nvidia-* packages): not the driver's own libcuda.so, which another rule reads.
_row("cuda_runtime_library_missing", 2,
     r"lib(?:cudart|cublas(?:Lt)?|cudnn\w*|nccl|nvrtc|cusparse(?:Lt)?|cufft|curand|cusolver|nvJitLink|cupti)"
     r"\.so[\d.]*: cannot open shared object file",
     cls="dependency_error", default_phase="load",
     cause="A CUDA runtime library the installed wheels were built against is not installed (the message names it and "
           "its major version): torch, vLLM and the CUDA libraries come from different CUDA releases.",
     steps=["Install vLLM and torch into a clean environment from wheels built for one CUDA release, letting pip "
            "bring the matching nvidia-* runtime packages, or use vLLM's image",
            "Check LD_LIBRARY_PATH does not point at another CUDA toolkit's libraries"])
# `ldd` on vLLM's compiled extension (vllm/_C.abi3.so) not finding torch's own libraries: the extension was built
# against a torch that is not the one installed (a source build against a nightly, an environment changed after it).
_row("torch_library_not_found_by_ldd", 1, r"\blib(?:torch(?:_cpu|_cuda|_python)?|c10(?:_cuda)?)\.so => not found",
     cls="dependency_error", default_phase="load",
     cause="vLLM's compiled extension does not find torch's libraries (`ldd` prints them 'not found'): it was built "
           "against a torch other than the one installed, or outside this environment.",
     steps=["Build vLLM again inside this environment against the installed torch (python use_existing_torch.py, "
            "then pip install -e . --no-build-isolation), or install the vLLM wheel built for that torch",
            "Check `python -c 'import torch; print(torch.__version__, torch.__file__)'` names the torch you built "
            "against"])
# pybind11 refusing a call into a compiled op: the Python code and the compiled extension come from different
# versions (a stale source build, an editable install whose _C was not rebuilt, two vLLM copies on the path).
# xgrammar's token-bitmask kernel is applied to a request's logits as it is served with structured outputs: its
# signature refusing vLLM's arguments (an xgrammar of another release) shows at the first such request, not at load
_row("xgrammar_bitmask_signature_mismatch", 1,
     r"TypeError: apply_token_bitmask_inplace_\w+\(\): incompatible function arguments",
     cls="dependency_error", default_phase="runtime",
     cause="The installed xgrammar's bitmask kernel does not take the arguments this vLLM release (or its platform "
           "plugin) passes: the two come from releases that do not match, and every structured-output request fails.",
     steps=["Install the xgrammar version the vLLM release (and its platform plugin, such as vllm-ascend) pins, or "
            "upgrade the one that is behind"])
# (torch's own bindings refuse a constructor the same way: "TypeError: __init__(): incompatible constructor arguments"
# for a ProcessGroup built the way a newer torch takes it, vllm-ascend#924)
_row("compiled_op_signature_mismatch", 1, r"TypeError: \w+\(\): incompatible (?:function|constructor) arguments",
     cls="dependency_error", default_phase="load",
     cause="A compiled op was called with arguments its build does not accept: the Python code and the compiled "
           "extension come from different versions (a stale build).",
     steps=["Rebuild the extension from the same checkout (pip install -e . again, after removing build/), or "
            "reinstall the release wheel into a clean environment",
            "Check only one vLLM is importable (python -c 'import vllm; print(vllm.__file__)')"])
# A package's own compiled library, loaded by its path, is not there (an extension JIT-built into torch_extensions
# whose build failed or whose cache was cleared, a source build that did not finish): not a system library.
_row("package_library_missing", 1, r"OSError: /\S+\.so: cannot open shared object file",
     cls="dependency_error", default_phase="load",
     cause="A compiled library a Python package loads by its path is missing (the message names it): the package's "
           "build (a JIT build into torch_extensions, a source build) did not finish or its cache was removed.",
     steps=["Remove the package's build cache (the directory in the message) and start again so the build runs "
            "whole, reading its compiler output; or install the package's prebuilt wheel for this Python and CUDA"])
# torch's own check when CUDA is first used from a build without it (a CPU-only torch wheel in the environment).
_row("torch_without_cuda", 1, r"Torch not compiled with CUDA enabled",
     cls="dependency_error", default_phase="load",
     cause="The installed torch is a CPU-only build, so vLLM's CUDA code cannot run (pip resolved torch from the CPU "
           "index, or another package replaced it).",
     steps=["Reinstall the torch version vLLM pins with CUDA (`pip install vllm` in a clean environment brings it); "
            "check with `python -c 'import torch; print(torch.version.cuda)'`"])
# A torch custom class vLLM's compiled extension registers ("Tried to instantiate class '_core_C.ScalarType', but it
# does not exist!"): the extension did not load, so its classes were never registered.
_row("extension_class_not_registered", 2, r"Tried to instantiate class '_\w*C\.\w+', but it does not exist",
     cls="dependency_error", default_phase="load",
     cause="vLLM's compiled extension did not load, so the torch classes it registers are missing: the vLLM wheel was "
           "built for another torch (or CUDA) than the one installed.",
     steps=["Install the torch version this vLLM release pins (a clean environment), or a vLLM wheel built for the "
            "installed torch; look above for the extension's own import error"])
_row("undefined_symbol", 1, r"undefined symbol: |Symbol not found: ",
     cls="dependency_error", default_phase="load",
     cause="A compiled extension does not match the installed torch/CUDA (an undefined symbol or a missing "
           "shared library): vLLM, flash-attn or a kernel package built against another torch.",
     steps=["Reinstall vLLM and its kernel packages from wheels built for the installed torch/CUDA (or "
            "rebuild them against it) in a clean venv"])
_row("hf_cache_missing", 1, r"CacheNotFound|Cache directory not found",
     cls="model_download", default_phase="load",
     cause="The Hugging Face cache directory the server was pointed at does not exist.",
     steps=["Point HF_HOME / HF_HUB_CACHE / --download-dir at the directory that holds the weights, or serve "
            "the local model path"])
_row("chat_template_missing", 1, r"default chat template is no longer allowed|ChatTemplateResolutionError",
     cls="request_invalid", default_phase="runtime",
     cause="A chat request reached a model without a chat template (a base model, or a tokenizer_config "
           "without chat_template); vLLM answered HTTP 400.",
     steps=["Serve with --chat-template (the model card's template), or use /v1/completions for base models"])
# The chat server renders a sample conversation through the model's chat template before it listens, and logs the
# exception when that fails (vllm#31968): the template or the tokenizer that carries it cannot render a chat, so
# every chat request would fail the same way. The exception under it, when shown, names the reason (tier 1 wins).
_row("chat_template_warmup_failed", 2, r"Chat template warmup failed",
     cls="tokenizer_error", default_phase="startup",
     cause="The server could not render a sample chat through the model's chat template at start: the template (or "
           "the tokenizer files that carry it) does not fit this model or this vLLM; chat requests will fail.",
     steps=["Read the exception under the warm-up error; pass the model card's template with --chat-template, or fix "
            "tokenizer_config.json's chat_template, and serve base or speech models through their own routes"])
_row("prompt_too_long", 1, r"(?:Prompt|decoder prompt) (?:length of |\(length )?\d+\)? is longer than the "
     r"maximum model length",
     cls="request_invalid", default_phase="runtime",
     cause="A prompt was longer than max_model_len; the request was rejected. The server itself is healthy.",
     steps=["Truncate prompts client-side (prompt + max_tokens <= max_model_len), or raise max_model_len if the "
            "KV cache holds it"])
# vllm-omni's diffusion pipelines check a prompt against their text encoder's sequence limit before generating.
_row("prompt_over_text_encoder_limit", 1, r"`?prompt`? is too long for [^:]{1,80}: got \d+ tokens, but "
     r"`?max_sequence_length`? is \d+",
     cls="request_invalid", default_phase="runtime",
     cause="A prompt was longer than the model's text encoder takes (its max_sequence_length); the request was "
           "rejected. The server itself is healthy.",
     steps=["Shorten the prompt client-side, or raise the pipeline's max_sequence_length where the model allows it "
            "(up to the limit the message names)"])
_row("prompt_over_scheduler_limit", 1, r"Input prompt \(\d+ tokens\) is too long and exceeds (?:the )?(?:capacity"
     r" of block_manager|limit of \d+)",
     cls="request_invalid", default_phase="runtime", quiet_levels=True,
     cause="A prompt was longer than the scheduler's limit (min of max_model_len and max_num_batched_tokens); "
           "vLLM finished that request without output. The server itself is healthy.",
     steps=["Truncate prompts client-side, or raise max_model_len / max_num_batched_tokens (enable chunked "
            "prefill) if such prompts are expected and the KV cache holds them"])
_row("engine_version_not_on_platform", 1, r"(?:backend|platform) (?:only supports|does not support) (?:the )?V\d\b",
     cls="config_invalid", default_phase="load",
     cause="The options chose an engine version (V0/V1) this platform's backend does not have (an option that only the "
           "other engine implements).",
     steps=["Drop the option that selects the other engine (the message's traceback names the step), or run a vLLM "
            "release whose backend for this platform has that engine"])
# vLLM prints this while Ray cannot place the workers' GPU bundles; a start that goes on to serve is not stopped by it
# (matches before serving are dropped), one that stops here is waiting on the Ray cluster.
_row("ray_placement_group_waiting", 3, r"Waiting for creating a placement group of specs",
     cls="ray_error", default_phase="load", quiet_levels=True,
     cause="Ray cannot place the workers' GPU bundles: the cluster does not offer the GPUs the placement group asks "
           "for (a node missing or not joined, GPUs reported under another resource name, or VLLM_HOST_IP not the "
           "address Ray uses).",
     steps=["Run `ray status` and `ray list nodes`: every node joined, each with its GPUs under `GPU`",
            "Set VLLM_HOST_IP on each node to the address the Ray cluster uses; match tensor/pipeline parallel sizes "
            "to the GPUs Ray reports"])
# ray.init() from the engine finding no node of a cluster to attach to (RAY_ADDRESS or a stale session pointing at a
# cluster that is not there, or the node's IP not the one Ray registered): "No node info found matching attributes: ''
# when trying to resolve node to connect to".
_row("ray_node_not_found", 1, r"No node info found matching attributes|when trying to resolve node to connect to",
     cls="ray_error", default_phase="load",
     cause="The engine's ray.init() found no Ray node to attach to on this host: the cluster it was pointed at "
           "(RAY_ADDRESS, an old session under /tmp/ray) is not running here, or the node registered another IP.",
     steps=["Check `ray status` on this host; start the head (or join this node) before vLLM, or unset RAY_ADDRESS "
            "and remove a stale /tmp/ray session so ray.init() starts a local cluster",
            "On a multi-node cluster, set VLLM_HOST_IP (and Ray's --node-ip-address) to the address Ray registered"])
_row("dense_offline_data_parallel", 1, r"Offline data parallel mode is not supported",
     cls="config_invalid", default_phase="load",
     cause="Data parallelism was asked for in offline mode for a dense model, which vLLM does not support.",
     steps=["Use tensor_parallel_size (or several servers) instead of data_parallel_size for a dense model"])
# vLLM or a model's own code registering a config name that the installed transformers now defines itself (vLLM's
# 'aimv2' for Ovis once transformers added AIMv2): transformers newer than the code that registers.
# transformers releases with per-layer (heterogeneous) configs refuse a global read of an attribute that may vary by
# layer ('head_dim' for Gemma 4); a vLLM release made before them still reads the global value
_row("transformers_per_layer_attribute", 1, r"AmbiguousGlobalPerLayerAttributeError",
     cls="dependency_error", default_phase="load",
     cause="The installed transformers is newer than this vLLM release: its config refuses the global read of a "
           "per-layer attribute (such as head_dim) that vLLM's model code makes.",
     steps=["Install the transformers release this vLLM release pins (its requirements), or upgrade vLLM to a "
            "release that reads the per-layer configs"])
# transformers 5 validates a config's layer_types against the kinds it knows (huggingface_hub's strict dataclasses): a
# model with a newer kind of layer (GLM-5.2's sparse attention) needs the transformers release that added it
_row("transformers_unknown_layer_type", 1,
     r"The `layer_types` entries must be in|Class validation error for validator 'validate_layer_type'",
     cls="dependency_error", default_phase="load",
     cause="The installed transformers does not know a kind of layer in the model's config.json (its layer_types): "
           "the model needs a newer transformers.",
     steps=["Install the transformers release the model card names (pip install -U 'transformers>=<that release>') "
            "with a vLLM release that supports it, in the serving venv or image"])
# xgrammar's token-bitmask kernel called with a bitmask built for another xgrammar release's layout (vLLM and the
# installed xgrammar do not match)
_row("xgrammar_bitmask_layout_mismatch", 1, r"bitmask must have the hidden size equal to ceilDiv\(vocabSize, 32\)",
     cls="dependency_error", default_phase="runtime",
     cause="The installed xgrammar does not match this vLLM release: its bitmask kernel expects another layout than "
           "the one vLLM builds for structured outputs.",
     steps=["Install the xgrammar version vLLM's requirements pin (pip install 'xgrammar==<that version>'), or "
            "upgrade vLLM to a release made for the installed xgrammar"])
_row("config_name_taken_by_transformers", 1, r"'[\w-]+' is already used by a Transformers config",
     cls="dependency_error", default_phase="load",
     cause="A model type that vLLM or the model's own code registers is already defined by the installed "
           "transformers: transformers is newer than the code that registers it.",
     steps=["Install the transformers release this vLLM release pins (its requirements), or upgrade vLLM (or the "
            "model's code) to a release that no longer registers the name"])
# Most often a program written for another vLLM release (a trainer, a benchmark script) passing an argument this one
# does not have: the program and the installed vLLM do not match.
_UNEXPECTED_ARGUMENT_CAUSE = (
    "An argument this vLLM release does not know was passed to the engine: the calling program (a trainer, a "
    "benchmark script, your own code) was written for another vLLM release.")
_UNEXPECTED_ARGUMENT_STEPS = [
    "Install the vLLM release the calling program names (its requirements), or upgrade vLLM to the release that "
    "has the argument (check `vllm serve --help`)",
    "If the argument is your own, drop it"]
_row("unexpected_engine_argument", 1, r"unexpected keyword argument '\w+'",
     cls="dependency_error", default_phase="load", context=r"EngineArgs|LLM\(|entrypoints",
     cause=_UNEXPECTED_ARGUMENT_CAUSE, steps=_UNEXPECTED_ARGUMENT_STEPS)
# A call into torch's own API (the frame's last line, `torch.fx.passes.split_module.split_module(`) refused an
# argument: the code was written for another torch release than the one installed.
_row("torch_api_argument_unknown", 1, r"\w+\(\) got an unexpected keyword argument '\w+'",
     context=r"\btorch\.(?:\w+\.)+\w+\(\s*(?:\n\s*[\^~]+\s*)?\Z",
     cls="dependency_error", default_phase="load",
     cause="A call into torch's API passed an argument the installed torch does not take: vLLM (or the package "
           "making the call) was built for another torch release.",
     steps=["Install the torch release this vLLM release pins (its requirements), or the vLLM build made for the "
            "installed torch; `pip check` lists the mismatch"])
# The same, named by the call's own message when no traceback is shown: vLLM's public API (`LLM.chat()`, the
# server's `build_async_engine_client_from_engine_args()`).
# (and the OpenAI server's classes, which wrappers such as BentoML's construct themselves, and SamplingParams, which
# callers build for each request)
_row("unexpected_api_argument", 1,
     r"\b(?:LLM\.\w+|\w*_engine_args|(?:OpenAIServing\w*|SamplingParams)\.__init__)\(\) got an unexpected "
     r"keyword argument",
     cls="dependency_error", default_phase="load",
     cause=_UNEXPECTED_ARGUMENT_CAUSE, steps=_UNEXPECTED_ARGUMENT_STEPS)
# An attention backend without the encoder's attention (V0's HPU, ROCm and other backends for encoder-decoder models:
# "Encoder self-attention and encoder/decoder cross-attention are not implemented for HPUAttentionImpl").
_row("encoder_attention_not_implemented", 1,
     r"Encoder self-attention and encoder/decoder cross-attention are not implemented for \w+",
     cls="attention_backend_unsupported", default_phase="load",
     cause="The attention backend chosen for this platform does not implement the encoder's self-attention or the "
           "encoder-decoder cross-attention the model needs (an encoder-decoder or vision-encoder model).",
     steps=["Select an attention backend that supports encoder attention on this platform (VLLM_ATTENTION_BACKEND), "
            "or run the model on a platform or vLLM release whose backend implements it"])
# The engine's loop dying right after the server logged a request with an empty prompt ("prompt: '', ...,
# prompt_token_ids: []"): releases before vLLM rejected empty prompts with a 400 let one request kill the engine.
_row("empty_prompt_killed_engine", 0,
     r"Engine background task failed|AsyncEngineDeadError|EngineCore encountered a fatal error",
     context=r"prompt: '', params: .*prompt_token_ids: \[\]", context_any_process=True,
     cls="request_invalid", default_phase="runtime",
     cause="A request with an empty prompt reached the engine and its loop failed on it: this vLLM release does not "
           "reject empty prompts, so one such request stops the server.",
     steps=["Reject empty prompts before they reach the server (the client, the gateway), and upgrade vLLM to a "
            "release that answers them with a 400 instead"])
# A setting given a value its option does not take, named with the values it does ("moe_backend='emulation' is not
# supported for FP8 MoE. Expected one of ['triton', 'deep_gemm', ...]").
_row("option_value_not_supported", 2, r"\b\w+='[\w.-]+' is not supported for [^.]+\. Expected one of \[",
     cls="config_invalid", default_phase="load",
     cause="An option was given a value this vLLM release does not support for this model or layer; the message lists "
           "the values it takes.",
     steps=["Set the option to one of the values the message lists (or leave it unset for vLLM's choice)"])
# The chat endpoint given a message content part of a type it does not parse ("Unknown part type: video" for a
# model or release without that input): the request's error, the server kept serving.
_row("chat_content_part_unknown", 1, r"\bUnknown part type: \w+",
     cls="request_invalid", default_phase="runtime", server_side=True,
     cause="A chat request carried a message content part of a type this server does not accept (a video, audio or "
           "other part the release or the model does not take): that request failed, the server kept serving.",
     steps=["Send the part as a type the server takes (image_url, input_audio, video_url where the model supports it), "
            "or upgrade vLLM to a release that parses it"])
# vLLM's server builds `uvicorn.Config(app, **uvicorn_kwargs)` with the arguments of the uvicorn release it requires;
# an older uvicorn in the environment (pinned by another package) does not take them
_row("uvicorn_too_old", 1, r"\bConfig\.__init__\(\) got an unexpected keyword argument '\w+'",
     context=r"uvicorn", cls="dependency_error", default_phase="load",
     cause="The installed uvicorn is older than this vLLM release needs: the server passes it an argument it does not "
           "know.",
     steps=["Install the uvicorn version vLLM's requirements name (pip install 'uvicorn[standard]' at that version) "
            "and check which package pins the older one (pip check)"])
_row("op_not_built_for_backend", 1, r"Could not run '[\w:.]+' with arguments from the '\w+' backend",
     cls="dependency_error", default_phase="load",
     cause="An operator has no kernel for this device backend: the installed vLLM (or torch) build does not match "
           "the platform it runs on (a CPU build's op missing, a CUDA-only op on CPU).",
     steps=["Install the vLLM build for this platform (the CPU, CUDA or ROCm wheel or image), built against the "
            "installed torch, and rebuild a source build from a clean tree"])
# xFormers lists, under 'No operator found for `memory_efficient_attention_forward`', why each kernel was refused; a
# wheel without its CUDA extensions refuses them all
_row("xformers_without_cuda", 1, r"xFormers wasn't buil[dt] with CUDA support",
     cls="dependency_error", default_phase="load",
     cause="The installed xFormers has no CUDA kernels (a wheel built for another torch/CUDA, or a CPU-only build), "
           "so its memory-efficient attention has no operator for the GPU.",
     steps=["Install the xFormers wheel built for the installed torch and CUDA (the one vLLM's release pins), in a "
            "clean venv; `python -m xformers.info` shows whether its CUDA operators are available"])
# transformers wraps an import that fails inside one of its modules ('Failed to import transformers.models.x because of
# the following error'), and the error under it is a package conflict (pydantic 2's FieldInfo, a kernel package)
_row("transformers_module_import_failed", 1, r"Failed to import transformers\.[\w.]+ because of the following error"
     r"|'FieldInfo' object has no attribute 'required'",
     cls="dependency_error", default_phase="load",
     cause="transformers could not import one of its modules: a package it imports conflicts with the one installed "
           "(pydantic 2 where an older accelerate/deepspeed/peft expects pydantic 1, or a kernel package built for "
           "another torch).",
     steps=["Read the error under the failed import, then install versions that agree in the vLLM venv (upgrade "
            "accelerate, deepspeed and peft for pydantic 2, or reinstall the kernel package for the installed torch)"])
# vLLM's tool parsers log this (with the parser's own traceback) when a streamed tool call cannot be parsed; the
# request fails, the engine keeps serving (the xLAM, Apertus and K3-era parsers word it their own way)
_row("tool_call_parse_failed", 1,
     r"Error trying to handle streaming tool call|Error in (?:\w+ )?streaming tool calls?\b"
     r"|Error extracting (?:[\w-]+ )*streaming tool calls",
     cls="request_invalid", default_phase="runtime", quiet_levels=True, server_side=True,
     cause="The tool-call parser failed on a request's streamed output (the model's tool-call text did not have the "
           "shape the parser expects, or the parser has a bug); that request failed, the server kept serving.",
     steps=["Check that --tool-call-parser matches the model's tool-call format (and its chat template); update vLLM "
            "or the parser plugin if the parser itself raises"])
# Two packages that must come in matching versions (a library and its prebuilt kernels, a module compiled against
# another major version of NumPy or torch): the check that refuses the pair, or the import that breaks on it.
_row("package_version_mismatch", 1,
     r"version \(?v?[\d.]+\w*\)? does not match [\w.-]+ version|Please install the same version of both packages"
     r"|compiled using \w+ [\d.]+x? cannot be run in|operator \w+::\w+ does not exist"
     r"|must be compiled with \w+ [\d.]+",
     cls="dependency_error", default_phase="load",
     cause="Two packages in the venv do not match: a library and its prebuilt kernels of different versions, or a "
           "compiled module built against another NumPy/torch than the one installed (a custom operator it "
           "registers is then missing).",
     steps=["Install the versions that belong together in a clean venv (the ones vLLM's release pins: torch, "
            "torchvision, numpy, flashinfer and its cubin/jit-cache packages); `pip check` lists the conflicts"])
# A platform plugin or backend package prints this when its import fails; the traceback under it is the CLI dying.
_row("backend_package_import_failed", 1, r"^Failed to import (?!from )[\w.]+\.?\s*$",
     cls="dependency_error", default_phase="load", quiet_levels=True,
     cause="A package the platform or backend needs could not be imported (not installed in this venv, or built "
           "for another torch/driver).",
     steps=["Install the package named (the one the platform plugin or backend needs, built for the installed "
            "torch) in the vLLM venv, then `python -c 'import <package>'` to see its own error"])
# A kernel or feature that names the package it needs ("Sparse Attention Indexer CUDA op requires DeepGEMM to be
# installed", "... is not installed"), raised where it is first used.
_row("required_package_not_installed", 3,
     r"(?:Error|Exception): .*\brequires? [\w.-]+(?: [\w.-]+)? to be installed|(?:Error|Exception): [\w.-]+ is not "
     r"installed\b",
     cls="dependency_error", default_phase="load",
     cause="A kernel or feature this configuration uses needs a package that is not installed in this venv.",
     steps=["Install the package the error names, at the version this vLLM release pins (its requirements or "
            "install script), or turn off the feature that needs it; then start again"])
# Any other import that fails with a message of its own ("vllm.vllm_flash_attn requires the CUDA flash attention
# extensions"): a package built for another platform or without its native part, or one missing what it needs.
_row("python_import_failed", 3, r"^ImportError: \S",
     cls="dependency_error", default_phase="load",
     cause="A Python import failed (the message says what the module needs): a package built for another platform "
           "or without its compiled extensions, or one whose own dependency is missing or of another release.",
     steps=["Read the message for the module and what it needs; reinstall that package (or vLLM) built for this "
            "platform and torch, in the venv the server runs in"])
# vLLM's optional extras (audio: librosa and soundfile; video) are imported when a request, or an audio model's profile
# run, first needs them.
_row("vllm_extra_missing", 1, r"Please install vllm\[\w+\] for \w+ support",
     cls="dependency_error", default_phase="runtime",
     cause="The vLLM venv lacks one of vLLM's optional extras (vllm[audio] or vllm[video]) that this input needs.",
     steps=["Install the extra the message names at the same vLLM version in the venv or image "
            "(pip install 'vllm[audio]==<version>'), then restart"])
# Some builds (the OpenVINO and early Ascend backends, V0 with some attention backends) refuse a chunked prefill over
# a cached prefix when the first such request comes, not at start.
_row("chunked_prefill_with_prefix_caching", 1, r"chunked prefill cannot be used with prefix caching",
     cls="config_invalid", default_phase="runtime",
     cause="This build cannot combine chunked prefill with prefix caching, and the engine was started with both: the "
           "first request whose prefill is chunked over a cached prefix fails.",
     steps=["Start with one of the two off (--no-enable-prefix-caching, or --no-enable-chunked-prefill with "
            "max_num_batched_tokens at least max_model_len), or use a build whose backend supports both"])
# Early releases load some architectures only from one weight format ("Currently, the 'pt' format is not supported for
# Mixtral. Please use the 'safetensors' format instead.").
_row("load_format_unsupported_for_model", 1, r"the '\w+' format is not supported for \w+",
     cls="config_invalid", default_phase="load",
     cause="The --load-format given is not supported for this model's architecture (the message names the format "
           "to use instead).",
     steps=["Use the format the message names (--load-format safetensors, or auto), with the checkpoint's files in "
            "that format"])
# transformers releases before Llama 3.1 validate rope_scaling as {type, factor} and refuse the llama3 rope format.
_row("rope_scaling_format_unknown", 1, r"`rope_scaling` must be a dictionary with (?:two|with two) fields",
     cls="dependency_error", default_phase="load",
     cause="The installed transformers predates the model's rope_scaling format (Llama 3.1's `rope_type: llama3`): "
           "the config is valid, the library is too old for it.",
     steps=["Upgrade transformers (and vLLM) to releases that know the model's rope_scaling, in the vLLM venv"])
# torch's extension builder refusing an nvcc of another CUDA release than torch's own: vLLM built from source (an
# sdist pip fell back to, `pip install -e .`) against the wrong toolkit.
_row("cuda_toolkit_mismatches_torch", 1, r"The detected CUDA version \([\d.]+\) mismatches the version that was used",
     cls="dependency_error", default_phase="load",
     cause="vLLM is being built from source with a CUDA toolkit (nvcc) of another release than the one torch was "
           "built with (the message names both).",
     steps=["Install a prebuilt vLLM wheel for torch's CUDA instead of building, or point CUDA_HOME at the toolkit "
            "of torch's CUDA release (`python -c 'import torch; print(torch.version.cuda)'`) before building"])
# The fused MoE layer built without a quantization method for the checkpoint's format: that format has no MoE
# kernel in this vLLM (bitsandbytes' 4-bit experts in early releases).
_row("moe_quantization_unsupported", 1, r"^\s*AssertionError\s*$", context=r"assert self\.quant_method is not None",
     cls="quantization_unsupported", default_phase="load",
     cause="The checkpoint's quantization has no method for the model's fused MoE (expert) layers in this vLLM "
           "release: the experts cannot be built in that format.",
     steps=["Serve a checkpoint of the model in a format this release supports for MoE (fp8, AWQ or GPTQ through "
            "Marlin, the unquantized weights), or a release that adds MoE support for this format"])
# vLLM's compilation pass manager copied into a worker (deepcopy of the compilation config) refusing to be
# unpickled: torch.compile's setup, not the model.
_row("compile_pass_manager_copied", 1, r"Cannot unpickle PostGradPassManager",
     cls="compile_error", default_phase="startup",
     cause="vLLM's torch.compile pass manager was copied (the compilation config deep-copied or pickled for a "
           "worker), which it refuses: a vLLM release and a caller or plugin that copies the config disagree.",
     steps=["Start with --enforce-eager to confirm, then use the vLLM release the caller was written for, or a "
            "release that fixes the copy"])
# vLLM finding neither config.json nor Mistral's params.json where the model should be: the path is not a model
# directory of a format vLLM reads (a diffusers pipeline, a partial download, a path one level off).
_row("model_config_not_found", 1, r"Could not detect config format for no config file found",
     cls="config_invalid", default_phase="load",
     cause="vLLM found no config.json (nor Mistral's params.json) at the model path: it is not a model directory in a "
           "format vLLM reads, or the download is incomplete.",
     steps=["List the model path: point --model at the directory that holds config.json, finish the download, or "
            "serve the model with the runtime its format needs (a diffusers pipeline is not a Transformers model)"])
# vLLM's rotary-embedding factory meeting a rope_scaling type it does not implement: the config names it.
_row("rope_scaling_type_unknown", 1, r"Unknown RoPE scaling type \S+",
     cls="config_invalid", default_phase="load",
     cause="The model's config.json names a RoPE scaling type this vLLM release does not implement (the message names "
           "it): a config written or rewritten by another transformers release, an override, or a model newer than "
           "the release.",
     steps=["Check rope_scaling in the model's config.json (and any --hf-overrides or --rope-scaling) against the "
            "types this vLLM release lists; upgrade vLLM for a newer model, or restore the model's own config"])
# An installer's resolver reporting the environment cannot hold vLLM's pins: pip after installing (the conflicts it
# leaves; pip before 20.3 words it "X has requirement Y, but you'll have Z"), uv before (no solution); what pip could
# not install may be packages or a requirements file's lines ("-r requirements.txt (line 2)").
_row("package_requirements_conflict", 1,
     r"requires [\w.\-\[\]]+[=<>!~]=?\S+, but you have \S+ \S+ which is incompatible"
     r"|requires [\w.\-\[\]]+(?:[=<>!~]=?\S+)?, which is not installed\."
     r"|[\w.\-\[\]]+ \d\S* has requirement \S+, but\b"
     r"|No solution found when resolving dependencies|your requirements are unsatisfiable"
     r"|Cannot install .+? because these package versions have conflicting dependencies|\bResolutionImpossible\b",
     cls="dependency_error", default_phase="load",
     cause="The installed packages do not satisfy vLLM's pinned requirements (the resolver names each conflict, "
           "most often torch): vLLM runs against libraries of another release, or was not installed at all.",
     steps=["Install vLLM into a clean venv so its pins (torch above all) come with it, or install the vLLM release "
            "built for the torch you need; do not install other packages over its pins afterwards"])
# The installer finds no build of a package it was asked for that fits this host (an aarch64-only nightly, a CUDA
# variant's index, a release for other Pythons, a pin that does not exist): nothing was installed, whatever follows.
_row("wheel_not_for_platform", 1,
     r"can't be installed because it doesn't have a source distribution or wheel for the current platform"
     r"|is not a supported wheel on this platform"
     r"|No matching distribution found for \S+|Could not find a version that satisfies the requirement \S+",
     cls="dependency_error", default_phase="load",
     cause="The installer found no build of a package it was asked for (vLLM or one of its pins) that fits this "
           "host's Python, CPU architecture, glibc or CUDA variant in the index it reads, so nothing was installed.",
     steps=["Pick the release or index whose wheels match the host (the installer names the versions and "
            "platforms it found), or build from source; the deploy's preflight prints the host's architecture "
            "and Python"])
# pip pointed at a folder that holds no package to build ("pip install -e ." run one level off the source checkout):
# nothing was installed.
_row("install_path_not_a_project", 1,
     r"does not appear to be a Python project: neither 'setup\.py' nor 'pyproject\.toml' found"
     r"|Directory '[^']*' is not installable\. Neither 'setup\.py' nor 'pyproject\.toml' found",
     cls="dependency_error", default_phase="load",
     cause="The installer was given a folder with no setup.py or pyproject.toml (the path it names), so nothing was "
           "built or installed: most often the command ran outside the source checkout's top folder.",
     steps=["Run the install from the folder that holds vLLM's pyproject.toml (the clone's top level), or install "
            "a released wheel instead"])
# A request whose id is already in flight (a client or framework retrying with the id it used before): vLLM's output
# processor refuses it and that request fails; the engine serves on.
_row("request_id_in_use", 1, r"Request id \S+ already running",
     cls="request_invalid", default_phase="runtime",
     cause="A request came with an id that a running request already has (a retry that reused its id, or two "
           "requests given the same one): vLLM refused it.",
     steps=["Give every request a unique id (let vLLM make them, or add a retry count to the id); abort the first "
            "request before retrying under its id"])
# A process pinning itself to CPUs its cgroup does not allow (a container's cpuset smaller than the host's cores):
# the kernel refuses sched_setaffinity with EINVAL.
_row("cpu_affinity_outside_cpuset", 1, r"OSError: \[Errno 22\] Invalid argument", context=r"sched_setaffinity",
     cls="resource_limit", default_phase="load",
     cause="The process asked to run on CPU cores outside the set its container or cgroup allows, and the kernel "
           "refused: code that picks cores from the host's count (not the cpuset) fails in a container.",
     steps=["Give the container the cores the code reserves (docker --cpuset-cpus, a Kubernetes CPU manager "
            "policy), or turn off the feature that pins cores; check the allowed set with `taskset -p $$` inside"])
# gpt-oss's Harmony encoding fetches its tiktoken vocabulary when the server builds its chat handler: a host without
# access to it (air-gapped, behind a proxy) fails there, before any request.
_row("harmony_vocab_unavailable", 1, r"HarmonyError: error downloading or loading vocab file",
     cls="model_download", default_phase="startup",
     cause="The Harmony encoding (gpt-oss's chat format) could not download or read its tiktoken vocabulary file: "
           "the host has no access to it and no local copy.",
     steps=["Put the tiktoken vocabulary files (o200k_base) on the host and point TIKTOKEN_ENCODINGS_BASE at their "
            "folder (the gpt-oss recipe's offline setup), or let the host reach their download location once"])
# The OpenAI server's per-request generators log a failed tool-call extraction or reasoning parse and go on serving.
_row("response_parser_failed", 1, r"Error in chat_completion_(?:full|stream)_generator"
     r"|cannot determine if tools should be extracted|openai_harmony\.\w*Error|\bHarmonyError: ",
     cls="request_invalid", default_phase="runtime", quiet_levels=True, server_side=True,
     cause="A request's output could not be parsed for tool calls or reasoning (the model's text did not have the "
           "shape the parser expects, or the parser does not fit the model); that request failed or came back "
           "without its tool calls, the server kept serving.",
     steps=["Check that --tool-call-parser / --reasoning-parser and the chat template match the model; update vLLM "
            "or the parser if it raises on well-formed output"])
# V0's model runner logs the CUDA error of a failed execution while saving its inputs (a warning line); the wrapper
# that follows ("Error executing method 'execute_model'") says nothing more.
_row("failed_execution_cuda_error", 1, r"Failed to pickle inputs of failed execution: CUDA error: (?!out of memory)",
     cls="gpu_kernel_fault", default_phase="runtime", quiet_levels=True,
     cause="A model step failed with a CUDA error (a kernel fault: a kernel not implemented for this GPU, an illegal "
           "access, a launch failure); V0 logged it while saving the step's inputs.",
     steps=["Rerun with CUDA_LAUNCH_BLOCKING=1 to see the failing kernel; check the quantization's kernels support "
            "this GPU (FP8 needs compute capability 8.9 or newer for native kernels)",
            "Start with --enforce-eager to rule out CUDA-graph capture"])
# vLLM's kernels are custom ops of its compiled extension (vllm._C); one the build lacks fails the first forward pass:
# "Error in calling custom op awq_dequantize: '_OpNamespace' '_C' object has no attribute 'awq_dequantize'". A
# quantization method's kernel missing is that method unsupported by this build (ROCm builds leave several out).
_QUANT_KERNEL = (r"\w*(?:awq|gptq|marlin|gguf|ggml|fp8|fp4|int8|int4|w8a8|w4a16|machete|cutlass_scaled|squeezellm"
                 r"|aqlm)\w*")
_row("quantization_kernel_not_in_build", 1,
     rf"Error in calling custom op {_QUANT_KERNEL}:|'_OpNamespace' '_C' object has no attribute '{_QUANT_KERNEL}'",
     cls="quantization_unsupported", default_phase="startup",
     cause="The installed vLLM build has no kernel for this quantization method (its compiled extension lacks the "
           "op): the method is not built for this platform, or the build is stale.",
     steps=["Serve a checkpoint in a quantization this build supports on this platform (vLLM's quantization "
            "support table), or install a build that includes the op",
            "For a source build, rebuild cleanly (remove build/ and vllm/*.so) with the platform's kernels enabled"])
_row("custom_op_not_in_build", 2,
     # (torch.ops.vllm.* too: ops a platform or attention backend registers at import; and a platform plugin's own
     # kernel library, such as vLLM-Kunlun's xspeedgate_ops, older than the plugin that calls it)
     r"Error in calling custom op \w+:|'_OpNamespace' '\w+' object has no attribute '\w+'",
     cls="dependency_error", default_phase="startup",
     cause="The installed build lacks one of the compiled kernels it calls (vllm._C, or a platform plugin's kernel "
           "library): a stale or partial build, a kernel package older than the code that calls it, or a wheel "
           "built for another torch/platform.",
     steps=["Reinstall vLLM (and the platform plugin's kernel package) from wheels that match each other, the "
            "installed torch and the platform, or rebuild cleanly (remove build/ and vllm/*.so)"])
# A model directory with no config vLLM can read (no config.json, no Mistral params.json): a LoRA adapter's folder
# served as the model, a download without its config, the wrong directory.
_row("model_config_not_found", 1, r"No supported config format found in",
     cls="weights_missing", default_phase="load",
     cause="The model directory holds no config vLLM can read (config.json, or params.json for Mistral's format): "
           "the wrong directory, a download without its config, or a LoRA adapter's folder served as the model.",
     steps=["Point the model at the directory with config.json and the weights; serve a LoRA adapter with "
            "--enable-lora --lora-modules name=path on top of its base model, or merge it first"])
# An option that only applies to another kind of model (multimodal limits on a text-only model).
_row("option_for_another_model_kind", 1, r"is only supported for multimodal models",
     cls="config_invalid", default_phase="load",
     cause="An option that applies only to multimodal models (limit_mm_per_prompt, mm_processor_kwargs) was given "
           "for a model vLLM reads as text-only (often a converted checkpoint whose config lost its vision part).",
     steps=["Drop the multimodal options, or check that config.json names the multimodal architecture the weights "
            "belong to"])
# Tracing asked for (--otlp-traces-endpoint) in an image or venv without OpenTelemetry's packages.
_row("tracing_packages_missing", 1, r"OpenTelemetry is not available|OpenTelemetry packages must be installed",
     cls="dependency_error", default_phase="load",
     cause="Tracing was configured (otlp_traces_endpoint) but OpenTelemetry's packages are not installed where the "
           "server runs.",
     steps=["Install opentelemetry-sdk, opentelemetry-api and opentelemetry-exporter-otlp (and "
            "opentelemetry-semantic-conventions-ai) in the image or venv, or drop --otlp-traces-endpoint"])
# A cache directory the server's user cannot write (a root-owned ~/.cache from an earlier run, a read-only or
# HOME-less container under an arbitrary UID: OpenShift).
_row("cache_directory_not_writable", 1,
     r"(?i)permission ?error: \[(?:errno|error) 13\] permission denied: '[^']*(?:cache|huggingface|triton|/\.\w+)",
     cls="config_invalid", default_phase="load",
     cause="The server cannot write a cache directory (vLLM's, Hugging Face's, Triton's or torch's compile cache): "
           "it belongs to another user, or HOME points somewhere read-only.",
     steps=["Point the caches at a directory the service's user owns: VLLM_CACHE_ROOT, HF_HOME, TRITON_CACHE_DIR "
            "and XDG_CACHE_HOME (or HOME); on OpenShift mount a writable volume there"])
# The loader's check after reading every shard: parameters of the model that no checkpoint tensor filled (a traceback
# cut after its last frame still shows the check's source line: 'raise ValueError("Following weights were not
# initialized from "').
_row("weights_not_in_checkpoint", 1, r"Following weights were not initialized from (?:checkpoint|\"\s*$)",
     cls="weights_missing", default_phase="load",
     cause="The checkpoint lacks tensors the model needs (layers the config declares that no shard holds): an "
           "incomplete download, shards missing from the directory, or a config that does not match the weights.",
     steps=["Check that every shard the index (model.safetensors.index.json) names is present and complete, and "
            "that config.json (num_hidden_layers, architecture) belongs to these weights"])
# Ascend's device runtime reporting an exception in an AI core or vector core while a kernel ran, or a kernel that
# ran past the core's execution timeout (error 507034, "Vector core execution timed out").
# An accelerator's own allocator refusing a buffer (Tenstorrent's tt-metal: "Out of Memory: Not enough space to allocate
# ... B DRAM buffer across 12 banks"; "Statically allocated circular buffers ... beyond max L1 size"): the device
# memory is full, as with a CUDA out-of-memory error.
_row("accelerator_memory_exhausted", 1, r"Out of Memory: Not enough space to allocate \d+ B (?:DRAM|L1)\b"
     r"|Statically allocated circular buffers .{0,120}beyond max L1 size",
     cls="gpu_oom", default_phase="startup",
     cause="The accelerator's memory is full: its allocator could not place a buffer in device DRAM or a core's L1 "
           "(the model's weights, the KV cache or a kernel's buffers at this batch size and context).",
     steps=["Lower max_num_seqs (the batch the device compiles for) and max_model_len, or spread the model over more "
            "devices; the message names the buffer's size and what is free"])
_row("npu_core_exception", 1, r"there is an exception of (?:fftsplus )?(?:aivector|aivec|aicore|aic|aiv) error"
     r"|(?:aivector|aicore) (?:error|exception) (?:code|occurred)|(?:Vector|AI) ?[Cc]ore execution timed out"
     # the AI CPU (which runs Ascend's host-side operators such as copies) faulting: "RTS_HWTS: Aicpu exception"
     r"|RTS_HWTS: Aicpu exception"
     # the runtime's DFX report of the faulting kernel ("Aicore kernel execute failed, device id=9, ...")
     r"|Aicore kernel execute failed",
     cls="gpu_kernel_fault", default_phase="runtime",
     cause="A kernel faulted on the NPU (an AI core, vector core or AI CPU exception, or a kernel past the core's "
           "execution timeout, reported by Ascend's runtime): an operator's bug or an input it does not support, "
           "often only in graph mode or under concurrency.",
     steps=["Rerun with ASCEND_LAUNCH_BLOCKING=1 to find the operator; try eager mode (--enforce-eager) to tell a "
            "graph-mode kernel from the op itself, and check the CANN / vllm-ascend versions against each other"])
# The C toolchain a run-time compile needs (Triton builds its launcher stubs with the system's C compiler and linker;
# Inductor too) is missing from the host or image.
_row("c_toolchain_missing", 1,
     r"collect2: (?:fatal )?error: cannot find .ld.|Failed to find C compiler\. Please specify via CC"
     r"|error: command '(?:gcc|cc|x86_64-linux-gnu-gcc)' failed: No such file"
     # gcc is there but not its compiler proper (a partial install)
     r"|gcc: fatal error: cannot execute .cc1(?:plus)?.",
     cls="compile_error", default_phase="startup",
     cause="A kernel compiled at run time (Triton's launcher, Inductor's code) needs a C compiler and linker, and the "
           "host or image has none (gcc or ld missing).",
     steps=["Install the C toolchain in the image (build-essential / gcc and binutils), or set CC to a compiler "
            "that exists; --enforce-eager avoids the compile only where the kernels need none"])
# Building vLLM's extensions from source (ninja under setup.py/CMake): ninja names an input that the build does not make
# and the system does not have, such as the toolkit's libamdhip64.so or a CUDA library missing from the install.
_row("build_input_missing", 1, r"ninja: error: '[^']+', needed by '[^']+', missing and no known rule to make it",
     cls="dependency_error", default_phase="load",
     cause="Building vLLM from source stopped: a file its extensions link or include (named by ninja) is neither made "
           "by the build nor present on the system, most often a library of the GPU toolkit (ROCm, CUDA) missing "
           "from the install or from where the build looks.",
     steps=["Install the toolkit package that holds the file ninja names, or point the build at the toolkit that has "
            "it (ROCM_PATH / CUDA_HOME); or install a prebuilt wheel or image made for this platform"])
# Triton links the launcher it compiles against the driver's libcuda.so; the linker cannot find it when the image has
# only libcuda.so.1 (no unversioned link) or the driver's library directory is not on the linker's path.
_row("libcuda_not_linkable", 1, r"ld: cannot find -lcuda\b",
     cls="compile_error", default_phase="startup",
     cause="A kernel compiled at run time (Triton's launcher) could not be linked: the linker cannot find the "
           "driver's libcuda.so (only libcuda.so.1 in the image, or its directory not on the linker's path).",
     steps=["Check `ldconfig -p | grep libcuda`; point TRITON_LIBCUDA_PATH at the directory holding libcuda.so, or "
            "add the unversioned libcuda.so link (the container toolkit mounts only libcuda.so.1)"])
# SIGILL: the CPU met an instruction it does not have. The shell reports it ("Illegal instruction (core dumped)" in
# bash, "illegal hardware instruction" in zsh): a build compiled for a newer instruction set than this host's, such as
# vLLM's CPU wheel built with AVX-512 on an AVX2-only CPU.
_row("cpu_instruction_unsupported", 2,
     r"illegal hardware instruction|(?:^|\b\d+ +)Illegal instruction\b|\*\*\* SIGILL received",
     cls="gpu_arch_unsupported", default_phase="load",
     cause="The process was killed executing a CPU instruction this host does not have (SIGILL): the installed build "
           "(vLLM's CPU wheel, torch or a kernel package) was compiled for a newer instruction set, e.g. AVX-512 on a "
           "CPU with AVX2 only.",
     steps=["Compare the CPU's flags (`lscpu`, the avx512* entries) with what the build needs, and install a build "
            "for this CPU (vLLM's CPU wheel without AVX-512, or one built from source on this host)",
            "On an aarch64 or older x86-64 host, check every compiled package was built for that architecture"])
# A process killed by a native crash (a segfault or an abort in C/C++/CUDA code: a kernel library, NCCL, a driver's
# user-space part), which leaves no Python error to read. A last resort: a rule that knows the library's message wins.
_row("native_crash", 3,
     r"\*\*\* (?:SIGSEGV|SIGABRT|SIGBUS|SIGFPE) received|Fatal Python error: (?:Segmentation fault|Aborted|Bus "
     r"error)|^Segmentation fault(?: \(core dumped\))?$|double free or corruption|free\(\): invalid pointer"
     r"|terminate called after throwing an instance of",
     cls="engine_died_unexplained", default_phase="unknown",
     cause="A process died of a native crash (a segfault or abort in compiled code: a kernel library, NCCL, the "
           "driver's user-space part, a mismatched extension), so no Python error says why.",
     steps=["Read the native frames under the crash (the library named there: libnccl, a kernel package, libcuda); "
            "rerun with PYTHONFAULTHANDLER=1 (and NCCL_DEBUG=INFO for a collective) to get the stack of every "
            "thread",
            "Check that the extensions were built for the installed torch/CUDA (vLLM, flash-attn, FlashInfer) and "
            "that the driver matches"])
# A call that does not fit the callee's signature inside the serving stack: one package calling another's changed API
# (a model file or plugin written for another vLLM, a processor for another transformers). A last resort, like the
# missing attribute below.
_row("signature_mismatch_between_packages", 3,
     r"^(?:\w+\.)*TypeError: [\w.]+\(\) (?:missing \d+ required (?:positional|keyword-only) arguments?"
     r"|got multiple values for (?:keyword )?argument|takes (?:from \d+ to )?\d+ positional arguments? but \d+ "
     r"(?:were|was) given)",
     cls="dependency_error", default_phase="load",
     cause="Code called a function with arguments its installed version does not take: usually two packages of "
           "different releases (a model, plugin or integration written for another vLLM, transformers or torch).",
     steps=["Read the frame that made the call and the package that defines the callee: install the versions that "
            "belong together (the integration's pinned vLLM, the transformers release the model names); `pip check` "
            "lists conflicts"])
# Intel Gaudi's runtime (Synapse) found no HPU to open: no device passed into the container, the driver not loaded,
# or every device held by another process.
_row("hpu_device_not_acquired", 2, r"synStatus=\d+ \[Device not found\]|Device acquire failed",
     cls="driver_or_runtime", default_phase="startup",
     cause="Gaudi's runtime could not open an HPU: none is visible to the process (not passed into the container, the "
           "habanalabs driver not loaded) or another process holds them.",
     steps=["Run `hl-smi` where vLLM runs: it lists the devices and the processes holding them",
            "Pass the devices into the container (the habana runtime, HABANA_VISIBLE_DEVICES) and stop whatever holds "
            "them"])
# A wrapper that patches the installed vLLM (a mod, a patch set) with git: hunks that no longer apply mean the patch
# was written for another vLLM release.
_row("vllm_patch_not_applicable", 2, r"^error: (?:patch failed: \S*vllm/\S+:\d+|\S*vllm/\S+: patch does not apply)",
     cls="dependency_error", default_phase="load",
     cause="A patch to vLLM's files (a wrapper's mod or patch set) does not apply to the installed vLLM: it was "
           "written for another release.",
     steps=["Use the patch set's release made for this vLLM, or pin vLLM to the release the patch names; without it, "
            "start without the mod"])
# A kernel library probing its toolkit's version at import (Hygon's lightop reads DTK's version under ROCM_HOME) gets
# None where the toolkit is not installed where the variable points: a None, not two packages' releases.
_row("toolkit_version_probe_empty", 1, r"^(?:\w+\.)*AttributeError: 'NoneType' object has no attribute '\w+'",
     context=r"\b(?:ROCM|CUDA|DTK|HIP|MACA)_(?:HOME|PATH)\b|get_\w*(?:dtk|rocm|cuda|hip|driver)_?version\(",
     cls="driver_or_runtime", default_phase="load",
     cause="A library asked for its toolkit's version at import and got nothing: the GPU toolkit (CUDA, ROCm, DTK) is "
           "not installed where its home variable points, or that variable is unset.",
     steps=["Check the toolkit's home variable the frame reads (ROCM_HOME, CUDA_HOME) and that its version file "
            "exists there; use the image built for that toolkit release"])
# Pipeline parallelism calls the model's make_empty_intermediate_tensors on every stage but the first: a model class
# without it (no pipeline-parallel support in this vLLM) fails there, on the later stages' workers.
_row("model_without_pipeline_parallel", 1,
     r"^(?:\w+\.)*AttributeError: '\w+' object has no attribute 'make_empty_intermediate_tensors'",
     cls="parallel_config_invalid", default_phase="startup",
     cause="The model's implementation in this vLLM has no pipeline-parallel support (no "
           "make_empty_intermediate_tensors), so the later pipeline stages cannot run it.",
     steps=["Serve it with pipeline_parallel_size 1 (tensor parallel only), or upgrade to a vLLM whose implementation "
            "of the model supports pipeline parallelism"])
# --lora-modules takes name=path pairs (or JSON); vLLM's parser splits each on '=': a path holding another '=' or a
# value in the wrong form fails as the arguments are read.
_row("lora_modules_argument_malformed", 1, r"^ValueError: (?:too many|not enough) values to unpack \(expected 2",
     context=r"item\.split\('='\)|LoRAParserAction",
     cls="config_invalid", default_phase="load",
     cause="A --lora-modules value is not in the form name=path (the parser splits it on '=': a path with another '=', "
           "or a missing name).",
     steps=["Pass each adapter as name=path with a single '=', or as the JSON form "
            "'{\"name\": ..., \"path\": ..., \"base_model_name\": ...}'"])
# A model's own code reading a linear layer's plain `weight` (packing experts, tying embeddings) while the checkpoint
# is quantized: vLLM's quantized linear layers hold qweight/scales, not weight, so this model's implementation does
# not support that quantization method.
_row("quantized_layer_has_no_weight", 2,
     r"^(?:\w+\.)*AttributeError: '\w*(?:ParallelLinear|ReplicatedLinear|LinearBase)' object has no attribute 'weight'",
     cls="quantization_unsupported", default_phase="load",
     cause="The model's implementation read a linear layer's unquantized weight, but the checkpoint is quantized (its "
           "layers hold qweight and scales): this vLLM's implementation of the model does not support the "
           "checkpoint's quantization method.",
     steps=["Check the model's quantization method (quantization_config in config.json) against what this vLLM's "
            "implementation supports; upgrade vLLM, or serve another quantization (FP8, GPTQ) or the unquantized "
            "checkpoint"])
# A model's config class (transformers' or the checkpoint's remote code's) without a field vLLM's implementation of the
# model reads ("'ChatGLMConfig' object has no attribute 'num_hidden_layers'"): the checkpoint's config.json was written
# for another release of the model code. vLLM's own config classes are left to the package-mismatch row below.
_VLLM_CONFIG_CLASSES = (r"(?:Vllm|Model|Parallel|Cache|Scheduler|Compilation|Device|Load|LoRA|Lora|Speculative"
                        r"|Observability|KVTransfer|KVEvents|Decoding|StructuredOutputs|MultiModal|Pooler|Kernel"
                        r"|Attention|Profiler|ECTransfer)Config'")
_row("model_config_field_missing", 2,
     rf"^(?:\w+\.)*AttributeError: '(?!{_VLLM_CONFIG_CLASSES})\w+Config' object has no attribute '\w+'",
     cls="config_invalid", default_phase="load",
     cause="The model's config (its config.json as the transformers or remote-code config class reads it) lacks a "
           "field this vLLM's implementation of the model reads: the checkpoint's config was written for another "
           "release of the model code.",
     steps=["Compare the checkpoint's config.json with the model's current one on its hub page (re-download it, or "
            "add the missing field), or use the vLLM and transformers releases the model card names"])
# An object without an attribute its caller expects: most often two packages of different releases (an integration
# built for another vLLM, a library's renamed field). A last resort: a rule that knows the message wins.
_row("attribute_missing_between_packages", 3,
     r"^(?:\w+\.)*AttributeError: (?:'\w+' object|module '[\w.]+') has no attribute '\w+'",
     cls="dependency_error", default_phase="load",
     cause="Code called an attribute the installed package does not have: usually two packages of different "
           "releases (an integration or plugin written for another vLLM, transformers or torch).",
     steps=["Read the frame that raised it: install the versions of that package and vLLM that belong together "
            "(the integration's pinned vLLM); `pip check` lists conflicts"])
# The NPU's report of a collective task that waited past HCCL's execution timeout ("hccl fftsplus task timeout occurred
# during task execution, ... stuck notify num:1, timeout=1836s"): a rank never joined the collective.
_row("hccl_task_timeout", 1, r"hccl (?:fftsplus )?task timeout occurred", cls="timeout", default_phase="runtime",
     cause="An HCCL collective task on the NPU waited past its execution timeout (a stuck notify): one rank never "
           "reached the collective, because it hung, crashed or fell behind (a long step, a stall on another node).",
     steps=["Find the rank that did not arrive: the first error in every rank's log and plog around that time "
            "(ASCEND_GLOBAL_LOG_LEVEL=1); raise HCCL_EXEC_TIMEOUT only if that rank was merely slow"])
# Ascend's operators report a failed HCCL call through nnopbase; the operator's own failure (and torch_npu's "PTA call
# acl api failed") comes first in the log but is its consequence.
_row("hccl_resource_failure", 0, r"fails to invoke the \w+ function of the hccl module|HcclAllocComResource\w* failed",
     cls="nccl_error", default_phase="startup",
     cause="HCCL (Ascend's collective library) could not set up or allocate its communication resources for an "
           "operator (MoE dispatch/combine, all-reduce): the ranks' HCCL configuration, buffer size or network "
           "between the NPUs does not fit.",
     steps=["Rerun with ASCEND_GLOBAL_LOG_LEVEL=1 and HCCL's logs (plog) for the failing rank; check HCCL_BUFFSIZE, "
            "HCCL_IF_IP / HCCL_SOCKET_IFNAME and that every node's NPUs see each other (hccn_tool)"])
# NCCL's own report of the CUDA error under its failure: error 2 is an allocation that did not fit (its buffers, a
# communicator's set-up, an expert rebalance), the GPU's memory, not the network.
_row("nccl_cuda_out_of_memory", 1, r"Cuda failure 2 'out of memory'",
     cls="gpu_oom", default_phase="startup",
     cause="NCCL could not allocate GPU memory for its buffers: the GPU was full (the KV cache and graphs sized to "
           "gpu_memory_utilization leave NCCL too little).",
     steps=["Lower gpu_memory_utilization so NCCL's buffers fit beside the KV cache (or NCCL_BUFFSIZE for its "
            "per-peer buffers); check no other process holds memory on the GPU"])
# Disaggregated serving stacks (NVIDIA Dynamo, Mooncake's metadata) keep their discovery and leases in etcd: a worker
# that cannot reach it stops before it serves.
_row("etcd_unreachable", 1, r"Failed to connect to etcd server|Unable to create lease\. Check etcd server status",
     cls="distributed_network", default_phase="load",
     cause="The serving stack's worker could not reach etcd (its discovery and lease store): etcd is not running at "
           "the address the worker was given, or the network or a firewall is in the way.",
     steps=["Check etcd is up and answers at that address (`etcdctl --endpoints=<url> endpoint health`), and give "
            "every worker the same etcd endpoint (the stack's ETCD_ENDPOINTS)"])
# A tool parser that cannot decode the model's tool call logs this (and its JSON error) and answers the request
# without tool calls.
_row("tool_call_extraction_failed", 1,
     r"Error in extracting tool call(?:s)? from response"
     r"|Error extracting (?!(?:[\w-]+ )*streaming)(?:[\w-]+ )*tool calls\b",
     cls="request_invalid", default_phase="runtime", quiet_levels=True, server_side=True,
     cause="The tool-call parser could not decode a tool call in the model's output (malformed JSON, or a format the "
           "parser does not expect); that request came back without its tool calls, the server kept serving.",
     steps=["Check that --tool-call-parser and the chat template match the model's tool-call format; a model that "
            "writes several calls or extra text needs the parser for its format (or a newer vLLM)"])
# Gemma-2's logits soft-capping needs FlashInfer on the vLLM releases that refuse the other backends for it.
_row("soft_cap_needs_flashinfer", 1, r"use Flashinfer backend for models with logits_soft_cap",
     cls="attention_backend_unsupported", default_phase="load",
     cause="The model uses logits soft-capping (Gemma-2), which this vLLM supports only with the FlashInfer attention "
           "backend.",
     steps=["Install FlashInfer for the installed torch/CUDA and set VLLM_ATTENTION_BACKEND=FLASHINFER, or use a vLLM "
            "release whose default backend supports soft-capping"])
# Packages that compile kernels at run time (FlashInfer, DeepGEMM, Triton's CUDA paths) need the CUDA toolkit's nvcc.
_row("cuda_compiler_missing", 1, r"\bnvcc: (?:not found|No such file or directory)|[Cc]ould not find nvcc"
     r"|nvcc (?:was )?not found",
     cls="dependency_error", default_phase="load",
     cause="A package that compiles GPU kernels at run time (FlashInfer's JIT, DeepGEMM) needs the CUDA toolkit's "
           "nvcc, which is not installed (or not where CUDA_HOME points).",
     steps=["Install the CUDA toolkit matching the torch build (or use the package's prebuilt/AOT wheels) and set "
            "CUDA_HOME; or pick a backend that needs no JIT"])
# A kernel package vLLM uses when it is there (DeepGEMM for FP8 GEMMs) is missing or too old for this vLLM.
_row("kernel_package_missing_or_outdated", 1,
     r"is not available or outdated\. Please install or update"
     r"|Please install or update the `?[\w-]+`? to a newer version",
     # vLLM checks for it when it sets up and warms up the kernels that use it (DeepGEMM's FP8 warm-up)
     cls="dependency_error", default_phase="startup",
     cause="A kernel package this configuration needs (DeepGEMM for FP8 kernels, or the like) is not installed or is "
           "older than this vLLM expects.",
     steps=["Install the package version vLLM's release pins (its install script or requirements), or choose a "
            "configuration that does not use it (another quantization or kernel backend)"])
# A run-time kernel build (DeepGEMM's JIT) whose compiler exited with an error.
_row("jit_kernel_build_failed", 1, r"jit/kernel_runtime\.hpp:\d+\): exit_code == 0",
     cls="compile_error", default_phase="startup",
     cause="A kernel compiled at run time (DeepGEMM's JIT for FP8 GEMMs) failed to build: the compiler or CUDA toolkit "
           "in the image does not fit the package (versions, include paths) or this GPU.",
     steps=["Rerun with the package's JIT debug output (DG_JIT_DEBUG=1 for DeepGEMM) to see the compiler's error; "
            "use the CUDA toolkit and package versions vLLM's release pins, or disable the JIT backend "
            "(VLLM_USE_DEEP_GEMM=0)"])
# The PTX assembler of the toolchain in use (Triton's bundled ptxas, the CUDA toolkit's) does not know this GPU's
# architecture yet: a Blackwell card (sm_100/sm_120) under a toolchain older than CUDA 12.8.
_row("ptx_toolchain_lacks_gpu_target", 1,
     r"PTX \.version [\d.]+ does not support \.target sm_\d+|ptxas fatal\s*: Value 'sm_\d+a?' is not defined",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="The PTX toolchain the kernels are compiled with (Triton's ptxas or the CUDA toolkit's) is older than this "
           "GPU's architecture, so kernels compiled at start cannot target it.",
     steps=["Use a vLLM/torch/Triton build with a CUDA 12.8+ toolchain for Blackwell GPUs (or point TRITON_PTXAS_PATH "
            "at a new enough ptxas)"])
# The kernels use instructions the targeted architecture lacks: AWQ's or Marlin's tensor-core MMA
# ("Feature '.m16n8k16' requires .target sm_80 or higher") assembled for a V100 (sm_70) or a T4 (sm_75).
_row("kernel_needs_newer_gpu_target", 1,
     r"(?:Feature|Modifier) '[^']+'(?: on '\w+')? requires \.target sm_\d+ or higher",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="Kernels are being compiled for a GPU architecture older than they support: the instruction named needs "
           "the compute capability the message gives, and the target (TORCH_CUDA_ARCH_LIST, or the GPU) is below it.",
     steps=["Build only for compute capabilities these kernels support (TORCH_CUDA_ARCH_LIST at or above the one "
            "named), or on the older GPU use a quantization or model whose kernels run on it"])
# FlashAttention's version check refuses GPUs below compute capability 8.0 (a T4, a V100) for the V1 backend.
_row("flash_attention_refuses_gpu", 1, r"Cannot use FA version \d+ is not supported due to|FA\d is only supported on "
     r"devices with compute capability",
     cls="attention_backend_unsupported", default_phase="load",
     cause="The FlashAttention backend does not support this GPU's compute capability (FlashAttention 2 needs 8.0, "
           "FlashAttention 3 Hopper), so the attention backend vLLM chose cannot run here.",
     steps=["Choose a backend that supports the GPU (VLLM_ATTENTION_BACKEND=XFORMERS / TRITON_ATTN / FLASHINFER, as "
            "the vLLM release offers), or run a release whose default backend covers it"])
# Batch-invariant mode (VLLM_BATCH_INVARIANT=1) runs only on the attention backends it has deterministic kernels for;
# without --attention-backend the engine's start refuses what it would pick.
_row("batch_invariant_backend_required", 1, r"batch_invariant mode requires an attention backend in",
     cls="attention_backend_unsupported", default_phase="load",
     cause="Batch-invariant mode (VLLM_BATCH_INVARIANT=1) needs one of the attention backends the message lists, and "
           "the engine was not given one (or chose another for this GPU and model).",
     steps=["Pass --attention-backend with one of the listed backends that supports this GPU and model, or unset "
            "VLLM_BATCH_INVARIANT"])
# A proxy or gateway in front of the server (nginx, an ingress) gave up waiting for vLLM's answer: its 504 page or a
# client's report of it. The request took longer than the proxy's read timeout (a long generation, a queue, a hang).
_row("gateway_timeout", 2, r"\b504\b[ :]*(?:Server Error: )?Gateway Time-?out"
     # httpx's report of any 504, whatever reason phrase the gateway gave ("'504 No response from server' for url")
     r"|Server error '504 [^']*' for url",
     cls="timeout", default_phase="runtime", quiet_levels=True, server_side=True,
     cause="A proxy or gateway in front of vLLM (nginx, an ingress, a load balancer) timed out waiting for the answer "
           "and returned 504: the request ran longer than the proxy's read timeout, or the server was stuck.",
     steps=["Compare the request's time in vLLM's log (or its metrics' e2e latency) with the proxy's read timeout "
            "(nginx proxy_read_timeout, the ingress's timeout annotations): raise the timeout, stream the answer, or "
            "lower max_tokens",
            "If vLLM never logged the request, check the route between the proxy and the server"])
# Kubernetes refusing the Deployment a chart or operator renders: an admission webhook (GKE Autopilot's GPU rules, a
# policy engine) denied the manifest, so no vLLM pod is made.
_row("kubernetes_admission_denied", 1, r'admission webhook "[^"]+" denied the request',
     cls="config_invalid", default_phase="load",
     cause="The cluster's admission control refused the workload's manifest (the webhook and its violation are in "
           "the message), so no vLLM pod was created.",
     steps=["Change the chart's or operator's values to satisfy the policy the message names (a GPU node selector "
            "on GKE Autopilot, resource limits, a security context), then install again"])
# vLLM's interfaces for model plugins move between releases and the old name raises, naming where it went: the plugin
# or model code was written for another vLLM.
_row("plugin_interface_moved", 1, r"has been moved to `?[\w.]+`? in v\d+\.\d+",
     cls="dependency_error", default_phase="load",
     cause="Model or plugin code calls a vLLM interface that this vLLM release moved (the message names where): the "
           "code was written for an earlier vLLM.",
     steps=["Install the vLLM release the model's or plugin's code was written for, or update that code to the moved "
            "interface the message names"])
# Apple's Metal reports a command buffer that could not get GPU memory (vllm-metal on a Mac's unified memory): MLX
# aborts the process with it.
_row("metal_out_of_memory", 1, r"\[METAL\] Command buffer execution failed: Insufficient Memory"
     r"|kIOGPUCommandBufferCallbackErrorOutOfMemory",
     cls="gpu_oom", default_phase="runtime",
     cause="The Mac's GPU ran out of memory for a Metal command buffer (the unified memory the model, its KV cache "
           "and the batch share): the engine process was aborted.",
     steps=["Lower the memory the engine takes (a shorter max_model_len, fewer concurrent sequences, a smaller or "
            "more quantized model) and leave the macOS GPU memory limit headroom for the batch",
            "Watch memory pressure while serving; concurrency that grows past the limit ends the same way"])
# torch.compile's Triton backend refuses GPUs below compute capability 7.0 (Pascal and older) when it compiles.
_row("triton_gpu_too_old", 1, r"Found .{1,80}? which is too old to be supported by the triton GPU compiler",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="Triton, which torch.compile uses for vLLM's compiled graphs and kernels, does not support this GPU "
           "(compute capability below 7.0: Pascal and older).",
     steps=["Run with --enforce-eager (or compilation level 0) so nothing is compiled with Triton, and an attention "
            "backend that supports the GPU; or use a GPU of compute capability 7.0 or newer"])
# A host name that does not resolve (a Kubernetes service, a peer's name) stops a connection between components.
_row("host_name_not_resolved", 2, r"getaddrinfo\(\) failed for endpoint|Temporary failure in name resolution"
     r"|Name or service not known|nodename nor servname provided",
     cls="distributed_network", default_phase="startup",
     cause="A host name the server connects to does not resolve (a peer node, a KV-cache or store service): DNS or "
           "the service's name is wrong, or the service is not up yet.",
     steps=["Resolve the name from the server's host or pod (getent hosts <name>); fix the service name, the "
            "namespace or DNS, or use an address"])
# Kernel libraries' own refusals, written after the twelfth held-out part's measurement (measured by the next round):
# a Triton kernel configuration that needs more shared memory than this GPU has (consumer and older GPUs), an
# assertion in Triton's compiler, cuBLAS(Lt) refusing an operation on this GPU or dtype, and Ascend kernels built for
# another chip.
# vLLM's own CUDA ops check their shared memory against the device's per-block limit ("Shared memory usage exceeds
# device limit, and global memory fallback is not implemented yet": the MoE and MoE-LoRA alignment kernels, which
# scale with the experts and LoRA slots): a size of this deployment, not a build or a driver.
_row("kernel_shared_memory_over_device_limit", 1, r"Shared memory usage exceeds device limit",
     cls="resource_limit", default_phase="startup",
     cause="A vLLM kernel needs more shared memory per block than this GPU allows for this deployment's sizes (the "
           "MoE or MoE-LoRA alignment kernel, which grows with the experts and the LoRA slots per GPU).",
     steps=["Lower what the kernel scales with: --max-loras (and --max-lora-rank) for MoE LoRA, or the experts per "
            "GPU (expert parallelism)",
            "Or use a vLLM release whose kernel falls back to global memory for these sizes"])
_row("triton_kernel_out_of_resources", 1, r"OutOfResources: out of resource: shared memory"
     r"|mlir::triton::\w+.{0,300}Assertion .{0,200} failed",
     cls="compile_error", default_phase="startup",
     cause="A Triton kernel could not be compiled for this GPU: its configuration needs more shared memory than the "
           "GPU has, or Triton's compiler hit an internal assertion for this kernel on this architecture.",
     steps=["Use a vLLM release with kernel configurations tuned for this GPU, or another kernel backend for that op "
            "(the MoE / attention backend options); for a fused-MoE kernel, add a tuned config for this GPU",
            "If it is Triton's own assertion, upgrade or pin the Triton release vLLM's release pins"])
_row("cublas_op_not_supported", 1, r"CUBLAS_STATUS_NOT_SUPPORTED",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="cuBLAS (cuBLASLt) does not support the operation on this GPU or with these dtypes (an FP8 GEMM on a GPU "
           "or driver that lacks it).",
     steps=["Choose a quantization or kernel backend this GPU supports (no FP8 cuBLASLt path on it), or upgrade the "
            "driver/CUDA to one whose cuBLASLt has it"])
_row("ascend_kernels_for_another_chip", 1, r"socversion \w+ of bin package does not match the current device",
     cls="gpu_arch_unsupported", default_phase="startup",
     cause="The Ascend kernel package was built for another chip (an Atlas 910B build on a 310P, or the reverse).",
     steps=["Install the vllm-ascend / CANN kernel packages built for this device's SoC version, or rebuild with the "
            "right socversion"])
# An adapter whose files are not where vLLM looks (a hub id read as a local path, a checkpoint directory without
# adapter_config.json): the adapter is missing, not malformed. (LMCache's "No adapter found for URL: lm://..." names
# its remote-storage connector for a URL scheme, not a LoRA adapter.)
_row("lora_adapter_not_found", 1,
     r"No adapter found for (?!URL: )|No such file or directory: '[^']*adapter_config\.json'",
     cls="weights_missing", default_phase="runtime",
     cause="A LoRA adapter was not found where vLLM looked: the path holds no adapter_config.json (a hub id given "
           "where a local path is read, a training checkpoint directory, a path missing on this node).",
     steps=["Pass the adapter as a local directory that holds adapter_config.json and the adapter weights (download "
            "a hub adapter first), on every node; check the service user can read it"])
# An adapter is loaded when a request first names it (or at start with --lora-modules): weights vLLM cannot apply as
# LoRA (modules_to_save copies such as lm_head or embed_tokens, norms, target modules of another architecture) fail it.
_row("lora_adapter_weights_unsupported", 1, r"is unsupported LoRA weight|Loading lora \S+ failed"
     r"|Please verify that the loaded LoRA module is correct",
     cls="weights_mismatch", default_phase="runtime",
     cause="A LoRA adapter holds weights vLLM cannot apply as LoRA (full copies of lm_head, embeddings or norms "
           "saved with modules_to_save, or target modules this model does not have); loading it failed.",
     steps=["Read which weight or module the error names: train the adapter again without modules_to_save and with "
            "target modules of this architecture, or merge it into the base model and serve the merged weights",
            "Check the adapter is for this base model (its adapter_config.json base_model_name_or_path)"])
# vLLM reads a checkpoint's quantization settings from its own file (quant_config.json, quantize_config.json) or
# config.json; --quantization names a method the checkpoint has no settings for.
_row("quant_config_file_missing", 1, r"Cannot find the config file for \w+",
     cls="config_invalid", default_phase="load",
     cause="The checkpoint has no quantization settings for the method asked for (--quantization): no "
           "quant_config.json / quantize_config.json and no quantization_config in config.json.",
     steps=["Drop --quantization so vLLM uses the checkpoint's own config.json, or serve a checkpoint its quantizer "
            "wrote with its quantization config file"])
_row("lora_rank_over_max", 1, r"LoRA rank \d+ is greater than max_lora_rank \d+",
     cls="config_invalid", default_phase="load",
     cause="A LoRA adapter's rank is above the engine's max_lora_rank (16 unless set).",
     steps=["Start with --max-lora-rank at least the adapter's rank (the engine argument max_lora_rank)"])
_row("ray_no_gpu_on_node", 1, r"Current node has no GPU available|Ray does not allocate any GPUs on the driver "
     r"node|No available node types can fulfill resource request",
     cls="ray_error", default_phase="startup",
     cause="Ray's placement does not give the driver or the workers the GPUs they need (the node that runs "
           "vLLM has no GPU in the Ray cluster, or no node can satisfy the request).",
     steps=["Run vLLM on a GPU node of the Ray cluster; check `ray status` lists every GPU and node",
            "Match tensor/pipeline parallel sizes to the GPUs Ray reports"])
_row("ray_version_mismatch", 1, r"Version mismatch: The cluster was started with", cls="ray_error",
     default_phase="load",
     cause="Ray refused to join this process to the cluster: its Ray or Python version differs from the one the "
           "cluster was started with.",
     steps=["Run the same image (Ray and Python versions) on the head and on every worker node; `ray --version` "
            "and `python --version` on each"])
_row("gloo_peer_closed", 1, r"gloo/transport/tcp/pair\.cc:\d+\] (?:Connection closed by peer|Read error .{0,60}"
     r"Connection reset by peer)", cls="distributed_network", default_phase="startup",
     cause="A Gloo connection between ranks was closed by the other side: that rank exited or its host dropped the "
           "connection (its own log says why).",
     steps=["Read the log of the rank at the address named for its first error (it died first)",
            "Check the network between the nodes (GLOO_SOCKET_IFNAME) and that no rank is killed (OOM)"])
_row("ray_worker_killed", 1, r"(?:worker|actor) (?:died|is dead|unexpectedly exits).{0,300}OOM killer"
     r"|killed by SIGKILL by OOM killer|(?:Task was|were) killed due to the node\s+running low on memory"
     # Ray's own exception for those kills (host RAM; torch's GPU OutOfMemoryError is another class)
     r"|ray\.exceptions\.OutOfMemoryError"
     # Ray's memory monitor kills the newest task when the node's RAM passes its threshold
     r"|which exceeds the memory usage threshold of [\d.]+\. Ray killed this worker"
     # ... and the raylet's periodic summary of those kills, which is often all a driver's log shows of them
     r"|Workers \(tasks / actors\) killed due to memory pressure \(OOM\)"
     # ... and the advice Ray appends to a job's or a task's failure after such a kill
     r"|ray-core/scheduling/ray-oom-prevention\.html",
     cls="host_oom", default_phase="load",
     cause="A Ray worker process died; Ray's first suspect is the kernel OOM killer (host RAM ran out).",
     steps=["Check `dmesg | grep -i oom` / the journal on that node; give the node more RAM or load one model "
            "at a time (lower swap_space / cpu_offload_gb)"])
# Gloo resolving the interface GLOO_SOCKET_IFNAME names (or an exclusion pattern such as "^lo", which Gloo reads as
# a name): no such interface, or one without an address, on this host.
_row("gloo_interface_not_found", 1, r"Unable to find address for: \S+",
     cls="distributed_network", default_phase="load",
     cause="Gloo cannot find an address on the network interface it was told to use (GLOO_SOCKET_IFNAME): the "
           "interface does not exist on this host, has no address, or the value is a pattern Gloo reads as a name.",
     steps=["Set GLOO_SOCKET_IFNAME (and NCCL_SOCKET_IFNAME) to an interface name `ip -br addr` shows on every "
            "node, with the address the nodes reach each other on"])
_row("gloo_store_timeout", 1, r"Gloo .{0,40}Timed out|gloo/transport/tcp/.{0,80}[Tt]imed out",
     cls="distributed_network", default_phase="startup",
     cause="The ranks' TCP store / Gloo rendezvous timed out: a rank never connected (wrong address or "
           "interface, firewall, or a rank that died or hangs).",
     steps=["Set VLLM_HOST_IP and GLOO_SOCKET_IFNAME/NCCL_SOCKET_IFNAME to the interface the nodes share; open "
            "the ports between nodes",
            "Check every rank started (one that failed earlier leaves the others waiting)"])
_row("device_index_assert", 1, r"Assertion `.{0,80}index out of bounds|index out of bounds: 0 <=",
     cls="gpu_kernel_fault", default_phase="runtime",
     cause="A GPU kernel indexed past a table (device-side assert): positions past the rope table "
           "(VLLM_ALLOW_LONG_MAX_MODEL_LEN, rope overrides), token ids past vocab_size, or a vLLM bug for this "
           "input.",
     steps=["Keep max_model_len within the model's limit (unset VLLM_ALLOW_LONG_MAX_MODEL_LEN, check rope "
            "overrides); check the tokenizer matches the model",
            "Rerun with CUDA_LAUNCH_BLOCKING=1 to see the failing kernel; restart the unit"])
# (PJRT's allocator too: "RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 96.00M. That was
# not possible. There are 38.19M free.", tpu-inference#1710)
_row("xla_resource_exhausted", 1, r"RESOURCE_EXHAUSTED: (?:XLA|Error loading program|Error allocating device buffer)"
     r"|Ran out of memory in memory space|Attempting to reserve [\d.]+[KMGT]?i?B? at the bottom of memory",
     cls="gpu_oom", default_phase="startup",
     cause="The accelerator (TPU/XLA) ran out of memory while compiling or running the model.",
     steps=["Lower max_model_len / max_num_seqs / max_num_batched_tokens; then more chips or a smaller model"])
_row("engine_model_execution_error", 2, r"Error in model execution: ",
     cls="gpu_kernel_fault", default_phase="runtime",
     cause="A forward pass failed while serving (the wrapped error is on the same line).",
     steps=["Rerun with CUDA_LAUNCH_BLOCKING=1 and VLLM_LOGGING_LEVEL=DEBUG to find the failing kernel; "
            "--enforce-eager rules out CUDA graphs"])


# ----- wrappers and unclassified errors ---------------------------------------------------------

_WRAPPER_STARTUP = (
    r"Engine core initialization failed|EngineCore failed to start|Engine process failed to start"
    r"|WorkerProc initialization failed|WorkerProc failed to start|Error executing method '?\w+'?\. This might cause"
    r"|EngineCore hit an exception|[Gg]ot fatal signal from worker processes"
    r"|Worker proc \S+ died unexpectedly|Failed core proc"
    # Unsloth's launcher of a vLLM server subprocess, when the server stops before it reports ready
    r"|vllm_process failed to load|Stdout stream ended before readiness message"
    # other launchers' report that the vLLM server they started never became ready (InstructLab's ilab)
    r"|\bvLLM failed to start\b"
    r"|Error initializing vLLM engine|Exception in worker \w+ while processing method \w+\.?$"
)
_WRAPPER_RUNTIME = (
    r"EngineDeadError|engine dead|MQLLMEngine is already dead|AsyncEngineDeadError|Background loop has errored"
    r"|EngineCore encountered (?:a fatal error|an issue)|WorkerProc hit an exception|Worker failed with error"
    r"|Engine process \(pid \d+\) died|Dumping (?:input data|scheduler output) for (?:model execution|V\d LLM engine)"
    # the same crash dump (dump_input.py) also prints the scheduler's stats at the step that failed
    r"|Dumping scheduler stats: SchedulerStats\("
    r"|Engine background task failed"
    # the API server's output handler, which reads the engine core's outputs, logs the core's death first
    r"|AsyncLLM output_handler failed"
    # V0's AsyncLLMEngine when its engine loop ended with an error
    r"|Task finished unexpectedly\. This should never happen"
    # the API server's launcher when a request finds the engine dead (it then stops the server)
    r"|AsyncLLMEngine (?:has failed|is already dead), terminating server process"
    # V0's worker monitor and V1's engine client noticing a process gone (logged at start too: the phase read from
    # the timeline picks the start's wrapper then)
    r"|Worker \w+ pid \d+ died, exit code: -?\d+|Engine core proc \S+ died unexpectedly"
    # V1's engine core when its executor reports a worker process gone (the busy loop's EXECUTOR_FAILED request, or
    # any call to the workers after it): only a wrapper
    r"|RuntimeError: Executor failed\."
    # V0's multiprocessing client checking the engine process's heartbeat: the engine's loop died, or went silent
    r"|Engine loop has died|No heartbeat received from MQLLMEngine"
)
_WRAPPER_SYSTEMD = r"Main process exited, code=|Failed with result '(?:exit-code|signal|core-dump)'"


_row("engine_startup_failed", 4, _WRAPPER_STARTUP, default_phase="startup",
     cause='The engine failed to start; this line is a wrapper and the root cause was printed above it, '
           'outside the lines read.',
     steps=[
           "Read more of the journal (raise `lines`, or `since`) for the first ERROR/Traceback above 'Engine "
           "core initialization failed'",
           'If the full log holds no error above it, the engine never reported ready (slow weight loading, a '
           'cold compile/JIT cache): raise VLLM_ENGINE_READY_TIMEOUT_S and keep the compile caches'])


_row("engine_dead", 4, _WRAPPER_RUNTIME, default_phase="runtime",
     cause='The engine died while serving; this line is a wrapper and the root cause (often a GPU kernel or '
           'NCCL error) was printed above it, outside the lines read.',
     steps=[
           'Read more of the journal for the first ERROR/Traceback above the EngineDeadError',
           'The process exits after this; systemd restarts it (Restart=on-failure)'])
# V1's AsyncLLM fails each request still in flight when the engine core has died, at INFO: only a wrapper, one line a
# request.
_row("requests_failed_engine_dead", 4, r"Request \S+ failed \(engine dead\)",
     cls="engine_died_unexplained", default_phase="runtime", quiet_levels=True,
     cause="The engine died while serving: the API server failed the requests in flight ('failed (engine dead)'); "
           "the root cause was printed above them, outside the lines read.",
     steps=["Read more of the journal for the engine core's first ERROR/Traceback above these lines",
            "The process exits after this; systemd restarts it (Restart=on-failure)"])


# Xinference runs each model (its vLLM engine with it) in an actor process; the caller's "Remote server ... closed"
# says that process is gone, not why.
_row("model_actor_process_closed", 4, r"xoscar\.errors\.ServerClosed: Remote server \S+ closed",
     cls="engine_died_unexplained", default_phase="unknown",
     cause="The process that held the model (Xinference's model actor, with the vLLM engine in it) went away; the "
           "caller's error says only that its connection closed.",
     steps=["Read the worker's log above this line for the actor's own traceback (a GPU error, an out-of-memory kill: "
            "`journalctl -k | grep -i oom`)",
            "Relaunch the model once the cause is fixed; Xinference does not restart a dead model actor by itself"])


_row("process_exited", 4, _WRAPPER_SYSTEMD, default_phase="unknown",
     cause="The service's main process exited with an error; the journal lines read do not say why.",
     steps=[
           'Read more of the journal (raise `lines`) for the first ERROR/Traceback'])


_UNCLASSIFIED = re.compile(r"^\s*(?:[\w]+\.)*([A-Z]\w*(?:Error|Exception))\b:?\s*(.*)$")
# An exception raised without a message says nothing by itself ("TimeoutError", "AssertionError").
_BARE_EXCEPTION = re.compile(r"^\s*(?:\w+\.)*[A-Z]\w*(?:Error|Exception)\s*:?\s*$")


def _unclassified_finding(first_error: str) -> Finding:
    return Finding(
        cause=f"An error no rule recognises: {first_error[:300]}",
        steps=[f"Read the first error line and the traceback above it: {first_error[:300]}",
               "If it names a flag, file or package, fix that; otherwise search the vLLM issues for the "
               "message"])


_WRAPPER_ANY = re.compile("|".join((_WRAPPER_STARTUP, _WRAPPER_RUNTIME, _WRAPPER_SYSTEMD)))
# "NoneType: None" is what logger.exception() prints when no exception is being handled.
_NOT_AN_ERROR = re.compile(r"^\s*Traceback \(most recent call last\)|^Process \w+:$|^\s*$|^NoneType: None$"
                           r"|^Dumping (?:input data|scheduler output)|^Scheduler(?:Output|Stats)\("
                           # Python's lines that chain two tracebacks
                           r"|^The above exception was the direct cause of the following exception:"
                           r"|^During handling of the above exception, another exception occurred:"
                           # a library's notice that it fell back ("failed to import ttsfrd, use WeTextProcessing
                           # instead"): it went on without the module
                           r"|\b[Ff]ailed to import [\w.]+, (?:use|using|fall(?:ing)? back to) [\w.]+"
                           r"(?: instead)?\.?\s*$"
                           # a benchmark client's count of failed requests when none failed (a note may follow it)
                           r"|^\s*Failed requests: +0\b(?![.\d])"
                           # argparse's usage text, whose options may name a choice "error"
                           r"|^usage: \S+ \[-h\]|^\s+\[-{1,2}\w")
# "usage_lib.py:19: RuntimeWarning: Failed to read commit hash": Python warnings are not errors.
_PY_WARNING = re.compile(r"\b\w*Warning: ")


# ---------------------------------------------------------------------------------------------
# Risks: warnings that precede failures. Alone they are reported as risks with their next step; one
# becomes the cause only when a failure follows that no rule explains (a wrapper, a bare traceback).
# ---------------------------------------------------------------------------------------------

@dataclass
class _Risk:
    id: str
    pattern: re.Pattern
    explains: str | None   # the cause class it is when a failure follows
    risk: str
    step: str


RISKS = [_Risk(rid, re.compile(pattern), explains, risk, step) for rid, pattern, explains, risk, step in (
    # (0.5 and 0.6 wrote "No available block found in 60 second.")
    ("shm_broadcast_wait", r"No available (?:shared memory broadcast )?block found", "timeout",
     "A process waited a minute or more for the other workers: one of them hangs or is busy (compilation, "
     "weight loading or quantization, a stuck collective).",
     "If it repeats for many minutes, dump the workers' stacks (py-spy dump --pid) and rerun with "
     "NCCL_DEBUG=INFO; during a first compile it is expected"),
    # LMCache's own buffer for KV chunks full ("LMCache WARNING: Failed to allocate memory for tensor(...) because no
    # memory is available"): its stores and loads are skipped; a failure that follows while serving is that buffer's.
    # (its DEBUG lines of the same words are the allocator retrying, not yet full)
    ("lmcache_buffer_full", r"\bLMCache WARN(?:ING)?\s*: Failed to allocate memory (?:for tensor|during)",
     "resource_limit",
     "LMCache's buffer for KV chunks (its CPU memory, or the disk or remote backend's staging buffer) is full: it "
     "cannot hold more, so storing and loading the cache are skipped or fail.",
     "Raise LMCache's buffer (max_local_cpu_size / LMCACHE_MAX_LOCAL_CPU_SIZE) or lower the load; a buffer that stays "
     "full under steady load is chunks not being freed (an LMCache leak: upgrade it)"),
    # (the library it could not open being the GPU driver's own: no driver in the container, not a wrong wheel; older
    # releases write "vllm._C with ImportError(...)", newer "vllm._C: ImportError(...)")
    ("gpu_driver_library_missing", r"Failed to import from vllm\._C[ :].*libcuda\.so", "driver_or_runtime",
     "vLLM's compiled kernels did not load because the GPU driver's library (libcuda.so) is not there: the container "
     "or host has no NVIDIA driver mounted, so no GPU is usable.",
     "Run the container with the GPU runtime (--gpus all / the NVIDIA device plugin) and check `nvidia-smi` inside "
     "it"),
    ("vllm_kernels_not_loaded", r"Failed to import from vllm\._C(?!.*libcuda\.so)", "dependency_error",
     "vLLM's compiled kernels (vllm._C) did not load: the wheel does not match the installed torch/CUDA, so "
     "the first kernel call fails.",
     "Reinstall vLLM built for the installed torch and CUDA (a clean venv from the release's lock file)"),
    # vLLM's platform detection: no device platform found, or its install metadata missing (which can hide one)
    ("vllm_install_metadata_missing", r"The vLLM package was not found, so its version could not be inspected",
     "dependency_error",
     "vLLM's install metadata is missing (a copied or half-installed package), so its platform detection can fail "
     "and vLLM start with no GPU platform.",
     "Install vLLM with pip into this environment (pip install -e . for a source tree) and check that the start "
     "logs 'Automatically detected platform cuda' (or rocm)"),
    ("no_gpu_platform_detected", r"No platform detected, vLLM is running on UnspecifiedPlatform", "driver_or_runtime",
     "vLLM found no device platform (UnspecifiedPlatform): torch sees no CUDA/ROCm device or the driver's library "
     "is not on the library path, so the engine cannot run on a GPU.",
     "In the same environment run `nvidia-smi` and `python -c 'import torch; print(torch.cuda.is_available())'`; "
     "fix the GPU runtime or LD_LIBRARY_PATH, or install the torch build for this GPU"),
    ("cuda_init_failed", r"CUDA initialization: .{0,120}(?:driver|cudaGetDeviceCount|Error \d+)"
     r"|NVIDIA driver on your system is too old", "driver_or_runtime",
     "CUDA could not initialise (the driver is older than the CUDA the torch build needs, or no GPU is "
     "visible): GPU work will fail.",
     "Check `nvidia-smi` and the CUDA version of the torch build; upgrade the driver or install a matching build"),
    ("long_max_model_len_allowed", r"VLLM_ALLOW_LONG_MAX_MODEL_LEN|max_model_len.{0,40}greater than the derived",
     "gpu_kernel_fault",
     "max_model_len is above what the model was trained for (VLLM_ALLOW_LONG_MAX_MODEL_LEN): long prompts "
     "can produce NaNs or out-of-bounds kernel errors.",
     "Keep max_model_len within the model's derived limit unless rope scaling is configured for it"),
    # a guided-decoding request whose kind the chosen backend does not support is served by another backend
    ("guided_decoding_backend_fallback", r"only supports json or grammar guided decoding\. Falling back to use \w+",
     None,
     "A guided-decoding request used a kind the chosen backend does not support (a choice or a regex on xgrammar), "
     "so vLLM served it with another backend: slower, and its output may not follow the guide the same way.",
     "Pick the guided-decoding backend that supports the requests' kind (--guided-decoding-backend), or check the "
     "outputs of such requests"),
    ("kv_cache_preempting", r"preempted by PreemptionMode|is preempted|not enough KV cache space",
     "kv_cache_insufficient",
     "The KV cache fills up under load and requests are preempted (recomputed): slower, not failed.",
     "Lower max_num_seqs or max_model_len, or raise gpu_memory_utilization; watch vllm:num_preemptions_total"),
    # the same fallback for the model's own architecture (a list of class names): on a build without V0 (vLLM from
    # 0.10, platform plugins such as vllm-ascend) the model cannot run at all
    ("v1_architecture_unsupported", r"\['\w+'(?:, '\w+')*\] is not supported by the V1 Engine",
     "architecture_unsupported",
     "The model's architecture is not supported by the V1 engine: vLLM falls back to V0 where the release still has "
     "it, and the model cannot run where it does not.",
     "Serve the model with a vLLM release (or platform plugin) that supports its architecture in V1, or with one "
     "that still has V0"),
    ("v1_option_ignored", r"(?<!\] )is not supported by the V1 Engine"
     r"|(?<!\] is not supported by the V1 Engine\. )Falling back to V0", "config_invalid",
     "An option the V1 engine does not support was set; vLLM ignores it or falls back to V0.",
     "Remove the option from the launch flags"),
    ("multimodal_profile_short", r"too short to hold the multi-modal embeddings", "gpu_oom",
     "The memory profile ran with fewer multimodal tokens than the worst-case request holds: a request with many "
     "images or a long video can need more memory than was reserved, and run out of it.",
     "Raise max_model_len / max_num_batched_tokens, lower max_num_seqs, or cap inputs with "
     "--limit-mm-per-prompt so the profile covers the worst case"),
    ("model_type_mismatch", r"You are using a model of type \S* ?to instantiate a model of type", "config_invalid",
     "transformers read the checkpoint's config as another model type: the config may be loaded wrongly.",
     "Check config.json's model_type and architectures match the model (and that the transformers version "
     "knows it); pass --hf-config-path or --trust-remote-code if the model needs its own config class"),
    ("ray_parallel_over_local_gpus", r"(?:Tensor parallel size|[Ww]orld size) \(\d+\) exceeds (?:locally )?"
     r"(?:available|visible) GPUs", "ray_error",
     "The parallel size is larger than the GPUs of this node: Ray must place workers on other nodes, and the "
     "placement group fails if the cluster lacks them.",
     "Check `ray status` lists enough GPUs across nodes, or set tensor_parallel_size to the GPUs per node and "
     "pipeline_parallel_size to the number of nodes"),
    # The weight loader's note that a quantization scale in the checkpoint matched no parameter of the model ("Found
    # k_scale in the checkpoint (e.g. layers.3.self_attn.attn.k_scale), but not found the expected name in the
    # model"): the scale is skipped, the start goes on with default scales.
    ("checkpoint_scale_not_loaded", r"Found \w+ in the checkpoint \(e\.g\. \S+\), but not found the expected name "
     r"in the model", "weights_mismatch",
     "A quantization scale in the checkpoint (k_scale, q_scale, v_scale) matched no parameter of this vLLM's model and "
     "was not loaded: attention or the KV cache runs with default scales, which can cost accuracy.",
     "Check the checkpoint's scale names against the vLLM release the quantizer targets (or upgrade vLLM); compare "
     "outputs against the unquantized model"),
    ("kv_transfer_redo", r"Failed to receive all KVs and hidden states, redo model forwarding", "distributed_network",
     "A decode instance did not receive a request's KV cache from the prefill instance and recomputed it: the "
     "transfer between them fails or is slow; the request still finishes, slower.",
     "Check the KV connector's transfer between the instances (the connector's own log, the network and its "
     "transport between the nodes)"),
    ("custom_allreduce_disabled", r"Custom allreduce is disabled", None,
     "The custom all-reduce kernel is off (not supported for this GPU count or topology): tensor parallelism "
     "uses NCCL all-reduce, which is slower for small messages.",
     "Nothing to fix unless latency matters; --disable-custom-all-reduce makes it explicit"),
    ("attention_backend_fallback",
     r"Cannot use FlashAttention(?:-2)? backend|xFormers can't load C\+\+/CUDA extensions", None,
     "The preferred attention backend is not available (its package is missing or built for another torch/CUDA): "
     "vLLM falls back to a slower backend.",
     "Install the attention package built for this torch and CUDA (vllm-flash-attn, xformers), or ignore it if the "
     "fallback's speed is enough"),
    ("flashinfer_sampler_missing", r"FlashInfer is not available\. Falling back to the PyTorch-native implementation",
     None,
     "FlashInfer is not installed, so top-p/top-k sampling runs PyTorch's native implementation: slower sampling, "
     "same results.",
     "Install the FlashInfer build for the installed torch/CUDA if sampling speed matters; nothing to fix otherwise"),
    # torch's warning when a process exits without tearing its process group down: teardown, not a failure
    ("process_group_not_destroyed", r"destroy_process_group\(\) was not called|process group has NOT been destroyed "
     r"before we destruct ProcessGroupNCCL", None,
     "A process exited without tearing down its torch.distributed process group: pending NCCL work may not have "
     "finished, and a restart right after can find the GPUs still held.",
     "If a restart then hangs, check no old worker still holds the GPUs (nvidia-smi) before starting again"),
    # a kernel that raised and was replaced by a slower path ("Triton SnakeBeta failed, falling back to eager"); the
    # traceback logged with the warning is the handled exception's
    ("kernel_fallback", r"\bfailed\b.{0,80}\b[Ff]alling back to\b", None,
     "A kernel raised and the code fell back to a slower path: the process goes on, slower.",
     "Read the warning's traceback for why the fast path failed (an input dtype, the GPU, a library version) and fix "
     "that if speed matters"),
    ("swap_space_large", r"Possibly too large swap space", "host_oom",
     "swap_space asks for a large share of host RAM: loading can run the host out of memory.",
     "Lower --swap-space (GiB per GPU)"),
)]
_PY_USER_WARNING = re.compile(r"\b(?:User|Runtime|Future|Deprecation)Warning: ")
# The step a warning is logged in, for a log that holds nothing else to place it (Ray places the workers while the
# executor is built; the weight loader skips a scale as it loads the checkpoint).
_RISK_STEPS = {"ray_parallel_over_local_gpus": "load", "checkpoint_scale_not_loaded": "load"}


def _risks(run: _Run) -> list[dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for line in run.lines:
        if line.is_frame or not (line.quiet or line.level is None or _PY_USER_WARNING.search(line.message)):
            continue
        for risk in RISKS:
            if risk.id not in found and risk.pattern.search(line.message):
                found[risk.id] = {"rule": risk.id, "risk": risk.risk, "next_step": risk.step,
                                  "line": line.raw.strip()[:MAX_EVIDENCE_CHARS], "index": line.index,
                                  "explains": risk.explains}
    return sorted(found.values(), key=lambda r: r["index"])


def _public_risks(risks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: risk[key] for key in ("rule", "risk", "line", "next_step")} for risk in risks]


# ---------------------------------------------------------------------------------------------
# Client errors and the acceptance suite's probe windows
# ---------------------------------------------------------------------------------------------

# (uvicorn logs a WebSocket handshake, the realtime API's, as '"WebSocket /v1/realtime" 403', without an HTTP version)
_ACCESS = re.compile(r'"(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|WebSocket) (/[^\s?"]*)\S*(?: HTTP/[\d.]+)?" (\d{3})')
_MONTHS = {name: i for i, name in enumerate(
    ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1)}
_TIME_JOURNAL = re.compile(r"^([A-Z][a-z]{2}) +(\d{1,2}) (\d\d):(\d\d):(\d\d)")
_TIME_ISO = re.compile(r"(?:^|\[)\d{4}-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)")
_TIME_VLLM = re.compile(r"\b(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) (\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)")
Stamp = tuple[int, int, int, int, int]  # month, day, hour, minute, second (the log has no year)


def _stamp_of(raw: str) -> Stamp | None:
    journal = _TIME_JOURNAL.match(raw)
    if journal and journal.group(1) in _MONTHS:
        return (_MONTHS[journal.group(1)], *(int(g) for g in journal.groups()[1:]))
    for pattern in (_TIME_ISO, _TIME_VLLM):
        found = pattern.search(raw)
        if found:
            return tuple(int(g) for g in found.groups())  # type: ignore[return-value]
    return None


def _seconds_between(first: Stamp, last: Stamp) -> int:
    """Seconds from one stamp to a later one of the same month (the log has no year; 0 across months)."""
    if first[0] != last[0]:
        return 0

    def seconds(stamp: Stamp) -> int:
        return ((stamp[1] * 24 + stamp[2]) * 60 + stamp[3]) * 60 + stamp[4]
    return max(0, seconds(last) - seconds(first))


def _parse_stamp(value: Any, what: str) -> Stamp:
    text = str(value).strip()
    found = re.match(r"^\d{4}-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d))?", text)
    if not found:
        raise KimiDeployError(f"{what} must be an ISO 8601 time such as 2026-11-30T07:08:00Z, got {value!r}")
    month, day, hour, minute, second = (int(g or 0) for g in found.groups())
    return month, day, hour, minute, second


def _normalise_windows(windows: Any) -> list[tuple[Stamp, Stamp]]:
    """[{"start": iso, "end": iso}, ...] or [[start, end], ...]: the acceptance probes' time windows."""
    if windows in (None, "", []):
        return []
    if isinstance(windows, Mapping) or not isinstance(windows, (list, tuple)):
        windows = [windows]
    out = []
    for window in windows:
        if isinstance(window, Mapping) and "start" in window and "end" in window:
            start, end = window["start"], window["end"]
        elif isinstance(window, (list, tuple)) and len(window) == 2:
            start, end = window
        else:
            raise KimiDeployError(
                "exclude_windows must be a list of {start, end} (ISO 8601 times, as release.json's acceptance "
                f"window), got {window!r}")
        first, last = _parse_stamp(start, "exclude_windows start"), _parse_stamp(end, "exclude_windows end")
        if last < first:
            raise KimiDeployError(f"exclude_windows: end {end!r} is before start {start!r}")
        out.append((first, last))
    return out


def _line_stamps(lines: list[Line]) -> dict[int, Stamp]:
    """Each line's time: its own, or the last one logged before it (access lines carry none)."""
    stamps: dict[int, Stamp] = {}
    last = None
    for line in lines:
        last = _stamp_of(line.raw) or last
        if last is not None:
            stamps[line.index] = last
    return stamps


def _in_windows(stamp: Stamp | None, windows: list[tuple[Stamp, Stamp]]) -> bool:
    return stamp is not None and any(start <= stamp <= end for start, end in windows)


def _client_errors(run: _Run, excluded: set[int]) -> list[dict[str, Any]]:
    counts: dict[tuple[int, str, str], int] = {}
    for line in run.lines:
        access = _ACCESS.search(line.message)
        if access and access.group(3).startswith("4") and line.index not in excluded:
            key = (int(access.group(3)), access.group(1), access.group(2))
            counts[key] = counts.get(key, 0) + 1
    return [{"status": status, "method": method, "route": route, "count": count}
            for (status, method, route), count in sorted(counts.items())]


# ---------------------------------------------------------------------------------------------
# Diagnosis
# ---------------------------------------------------------------------------------------------

@dataclass
class _Match:
    rule: Rule
    line: Line
    match: re.Match


def _is_error_line(line: Line) -> bool:
    if (line.is_frame or line.ignored or line.quiet or _NOT_AN_ERROR.search(line.message)
            or _PY_WARNING.search(line.message)):
        return False
    if line.message.startswith("    ") and not re.search(r"\berror\b|\bfailed\b", line.message, re.IGNORECASE):
        return False  # source code of a traceback logged at ERROR level ("    tmp21 = tmp11 == 0")
    if line.level in ("ERROR", "CRITICAL"):
        return True
    # a tally that counts no failure ("55 applied, 64 skipped, 0 failed") names the word without one
    words = _ZERO_FAILURES.sub("", line.message)
    return bool(_EXCEPTION.match(line.message) or re.search(r"\berror\b|\bfailed\b|\bFATAL\b", words, re.IGNORECASE))


_ZERO_FAILURES = re.compile(r"(?<![\w.-])0 (?:failed|errors?|failures?)\b", re.IGNORECASE)


def _first_error_line(run: _Run, until: int | None) -> Line | None:
    wrapper = None
    for line in run.lines:
        if until is not None and line.index > until:
            break
        if run.before_serving(line.index):
            continue
        if not _is_error_line(line):
            continue
        if _WRAPPER_ANY.search(line.message):
            wrapper = wrapper or line
            continue
        return line
    return wrapper


# `    raise ValueError("No available memory for the cache blocks. "`: the traceback shows the message.
_RAISE_SOURCE = re.compile(r"^\s+raise \w+(?:\.\w+)*\(\s*f?[\"']")

# Rules that, on an INFO/WARNING line, describe a risk (see RISKS) rather than a failure.
_RISK_ONLY_WHEN_QUIET = {"kv_cache_preemption", "unsupported_engine_option"}
# The rules read on an INFO/DEBUG/WARNING line, chosen once rather than per line and rule: _matches is the hot loop.
_RULES_READ_ON_QUIET_LINES = [rule for rule in RULES if rule.quiet_levels and rule.id not in _RISK_ONLY_WHEN_QUIET]


def _read_by_rules(run: _Run, line: Line) -> bool:
    """Whether the rules read this line at all."""
    if (line.is_frame and not _RAISE_SOURCE.match(line.message)) or line.ignored or (
            run.shutdown is not None and line.index > run.shutdown):
        return False
    # "UserWarning: CUDA initialization: ..." is a risk (RISKS), not a failure; CMake's status output
    # ("-- CUDA Driver: .../libcuda.so") names libraries it found.
    if _PY_USER_WARNING.search(line.message) or _CMAKE_STATUS.match(line.message):
        return False
    # A start that went on to serve was not stopped by what it logged before: vLLM logs retries
    # ("Error parsing config ..., retrying 1 of 2") and non-fatal errors as ERROR too.
    return not run.before_serving(line.index)


def _matches(run: _Run, lines: list[Line]) -> list[_Match]:
    found = []
    for line in run.lines:
        if not _read_by_rules(run, line):
            continue
        # A message with other than ASCII goes through every pattern: case-insensitive matching pairs some
        # non-ASCII letters with ASCII ones (the Kelvin sign and k), which lower() would not.
        variants = [(variant, variant.message.lower() if variant.message.isascii() else None)
                    for variant in (line, *_wrapped(line, lines))]
        for rule in _RULES_READ_ON_QUIET_LINES if line.quiet else RULES:
            hit = None
            for variant, lowered in variants:
                if lowered is not None and rule.literals:
                    for literal in rule.literals:
                        if literal in lowered:
                            break
                    else:
                        continue
                hit = rule.pattern.search(variant.message)
                if hit:
                    break
            if not hit:
                continue
            if rule.context and not (rule.context.search(_traceback_context(lines, line.index,
                                                                            any_process=rule.context_any_process))
                                     or (rule.context_chained
                                         and rule.context.search(_chained_traceback(lines, line.index)))):
                continue
            found.append(_Match(rule, variant, hit))
    return found


def _wrapped(line: Line, lines: list[Line], limit: int = 2) -> list[Line]:
    """The message joined with the lines that continue it: a message reflowed over several lines, or a
    terminal that wrapped it mid-word ("... KV cache is nee" / "ded, ..."). A continuation has no level
    header of its own, is not a frame, a traceback or an exception, and belongs to the same process (or has no
    process tag: a terminal that wraps a tagged line does not repeat the tag)."""
    following = []
    for after in lines[line.index + 1:line.index + 1 + limit]:
        if ((after.tag != line.tag and after.tag) or after.level is not None or after.is_frame
                or not after.message.strip()
                or after.message[:1].isspace()  # indented: structured output (pydantic's details), not a wrap
                or _TRACEBACK.match(after.message) or _EXCEPTION.match(after.message)):
            break
        following.append(after.message.strip())
    if not following or line.is_frame or line.message.rstrip().endswith((".", ":")):
        return []
    spaced = line.message.rstrip() + " " + " ".join(following)
    glued = line.message.rstrip() + "".join(following)
    return [replace(line, message=text) for text in (spaced, glued)]


# CMake's status lines ("-- Found Torch: ...") report what it found; only "-- Configuring incomplete, errors occurred!"
# among them reports an error.
_CMAKE_STATUS = re.compile(r"^\s*-- (?!.*\b(?:errors?|failed|fatal)\b)", re.IGNORECASE)


_ERROR_WORDING = re.compile(_EXCEPTION.pattern + r"|\b(?:error|failed|fatal)\b", re.IGNORECASE)


def _best(matches: list[_Match]) -> _Match | None:
    order = {rule.id: i for i, rule in enumerate(RULES)}
    # Within a tier an error line (an exception, "Failed: ...") outranks a printed message: the reporter's
    # or vLLM's hint ("Bfloat16 is only supported ...") printed above the exception that stopped it.
    return min(matches, key=lambda m: (m.rule.tier, not _ERROR_WORDING.search(m.line.message), m.line.index,
                                       order[m.rule.id]), default=None)


def _evidence(lines: list[Line], decisive: list[Line]) -> list[str]:
    chosen = sorted({line.index: line for line in decisive}.values(), key=lambda line: line.index)
    out = []
    for line in chosen[:MAX_EVIDENCE_LINES]:
        text = line.raw.strip()
        out.append(text if len(text) <= MAX_EVIDENCE_CHARS else text[:MAX_EVIDENCE_CHARS] + " ...")
    return out


def _numbered(steps: list[str]) -> str:
    return " ".join(f"{i}. {step.rstrip('.')}." for i, step in enumerate(steps, 1))


@dataclass
class _Outcome:
    """What a start's diagnosis adds to the rule's finding."""
    risks: list[dict[str, Any]] = field(default_factory=list)
    client_errors: list[dict[str, Any]] = field(default_factory=list)
    healthy: bool = False


def _result(phase: str, finding: Finding, rule_id: str, cls: str, evidence: list[str],
            first_error: Line | None, outcome: _Outcome | None = None) -> dict[str, Any]:
    outcome = outcome or _Outcome()
    return {
        "phase": phase,
        "cause": finding.cause,
        "evidence": evidence,
        "next_step": _numbered(finding.steps),
        "parameter_changes": dict(finding.parameter_changes),
        "rule": rule_id,
        "first_error_line": first_error.raw.strip() if first_error else None,
        "cause_class": cls,
        "healthy": outcome.healthy,
        "risks": _public_risks(outcome.risks),
        "client_errors": outcome.client_errors,
    }


def _gather_more(text: str) -> list[str]:
    """Next steps for an error no rule knows: read more, and rerun with the logging that says more."""
    steps = ["Read the first error line and the traceback above it",
             "Rerun with VLLM_LOGGING_LEVEL=DEBUG for the engine's own account of the step that failed"]
    if re.search(r"NCCL|nccl|gloo|distributed|rank|TP|tensor.parallel|Ray", text):
        steps.append("For the multi-GPU/multi-node part: NCCL_DEBUG=INFO (and NCCL_DEBUG_SUBSYS=INIT,NET)")
    if re.search(r"CUDA|cuda|HIP|kernel|device", text):
        steps.append("For a CUDA/HIP error: CUDA_LAUNCH_BLOCKING=1 (AMD_SERIALIZE_KERNEL=3) to see the failing "
                     "kernel")
    steps.append("If it names a flag, file or package, fix that; otherwise search the vLLM issues for the "
                 "message")
    return steps


def _frame_text(lines: list[Line], index: int, limit: int = 80) -> str:
    """The traceback around line ``index`` (same process): frames above it and the ones logged after it."""
    tag = lines[index].tag
    after = []
    for line in lines[index + 1:index + 1 + limit]:
        if line.tag != tag:
            continue
        if not (line.is_frame or _TRACEBACK.match(line.message) or not line.message.strip()):
            break
        after.append(line.message)
    return "\n".join([_traceback_context(lines, index, frames_only=True), lines[index].message, *after])


_CONFIG_VALIDATION = re.compile(r"^\s*Value error, |validation errors? for \w*Config")


def _following_failure(lines: list[Line], index: int, limit: int = 40) -> str:
    """The frames and wrapper lines logged just after line ``index``: the traceback that reports it."""
    picked = [line.message for line in lines[index + 1:index + 1 + limit]
              if not line.ignored and (line.is_frame or line.level in ("ERROR", "CRITICAL")
                                       or _WRAPPER_ANY.search(line.message))]
    return "\n".join(picked)


# What the engine says about a failure it reports tells the phase when nothing else does: it "failed to
# start", or it died while serving (an engine is only dead once it has served), or a client got the answer.
_FAILED_TO_START = re.compile(r"Engine core initialization failed|EngineCore failed to start|Engine process failed "
                              r"to start|WorkerProc (?:initialization failed|failed to start)"
                              r"|Error initializing vLLM engine")
# (V1's engine core dumps the scheduler output of the step that failed: a step of scheduled requests)
_DIED_WHILE_SERVING = re.compile(r"EngineDeadError|MQLLMEngine is already dead|AsyncEngineDeadError|Background loop "
                                 r"has errored|Engine process \(pid \d+\) died"
                                 r"|Dumping (?:input data for V1 LLM engine|scheduler output for model execution)"
                                 # V0's AsyncLLMEngine reports the end of its background loop, which runs the
                                 # requests (started by the first one), and the line it logs the loop's error with
                                 r"|<function _log_task_completion\b|Engine background task failed")
# V1's crash dump of a failed step has its own logger ("ERROR 08-13 08:25:56 [dump_input.py:69] ..."): its records,
# even cut before their words, are a step of scheduled requests failing.
_STEP_DUMP_LOGGER = re.compile(r"\[dump_input\.py:\d+\]")
# V0's model runner saving the inputs of an execute_model call that raised, before it re-raises: the memory profile's
# dummy run or a served step failed, its error below what was read.
_V0_FAILED_EXECUTION_DUMP = re.compile(r"Writing input of failed execution to \S+")
_ANSWERED = re.compile(r'"(?:GET|POST|PUT|DELETE|PATCH) /\S* HTTP/[\d.]+" \d{3}')
# V1's engine core logs a client's utility call that raised (collective_rpc: an RL trainer's weight sync) only once it
# is up and serving: an error logged just before it failed that call.
_UTILITY_CALL_FAILED = re.compile(r"Invocation of \w+ method failed")


def _phase_told_by_the_engine(run: _Run, lines: list[Line], line: Line, limit: int = 40) -> str | None:
    after = [ln.message for ln in lines[line.index + 1:line.index + 1 + limit] if not ln.ignored]
    if any(_ANSWERED.search(text) for text in after):
        return "runtime"  # the request that hit the error was answered (a 500): the server was serving
    if any(_UTILITY_CALL_FAILED.search(text) for text in after):
        return "runtime"  # the engine was up and ran a client's call, which this error failed
    if any(_FAILED_TO_START.search(text) for text in after):
        return "before serving"
    if any(_DIED_WHILE_SERVING.search(ln.message) or _STEP_DUMP_LOGGER.search(ln.raw) for ln in run.lines):
        return "runtime"
    return None


# A progress bar (tqdm: "Loading safetensors checkpoint shards:   3% Completed | 1/37", "Capturing CUDA graph shapes:
# 91%|...| 32/35 [") redrawn right after an error names the step the error interrupted.
_PROGRESS_BAR = re.compile(r"\d+% Completed \| \d+/\d+|\d+%\|[^|]*\| ?\d+/\d+ \[")


def _stage_of_progress_after(lines: list[Line], index: int, limit: int = 6) -> str | None:
    for line in lines[index + 1:index + 1 + limit]:
        if _PROGRESS_BAR.search(line.message):
            return next((stage for stage, pattern in _MILESTONES if pattern.search(line.message)), None)
    return None


# The logger of the API server's per-request code, in the record's header ("ERROR 07-15 01:39:25 [serving.py:1007]").
# (a tool parser logs from the API server as it parses one request's output: "[hermes_tool_parser.py:111]")
_REQUEST_LOGGER = re.compile(r"[\[ ](?:serving(?:_chat|_completion|_engine|_responses|_embedding)?|api_router"
                             r"|\w+_tool_parser)\.py:\d+\]")
# An error that names the request it failed for ("Failed to advance FSM for request resp_2021...", "Handshake failed
# for request chatcmpl-..."): requests were being served.
_FOR_A_REQUEST = re.compile(r"\bfor request (?:id )?['\"]?(?:chatcmpl|cmpl-|resp_|[0-9a-f]{8})"
                            r"|\brequest[_ ]id[=:] ?['\"]?[\w-]{6,}")
# The engine process's own start frames: a worker's error reported through them may sit in any step of the start.
_ENGINE_START_FRAMES = re.compile(r"\b(?:run_engine_core|run_mp_engine|from_engine_args|_init_engine"
                                  r"|build_async_engine_client\w*|run_server)\b")


# Frames that only make a step likely, read when nothing else places a failure (the deepest of them wins):
# - a serving stack launching a model (Xinference's worker, whose model actor builds the engine; GPUStack's worker
#   starting a model instance's server): the engine had not finished starting, so the start's first step;
# - the engine's step (execute_model, and V1's sample_tokens after it, where a drafter proposes its tokens), a V1
#   worker's RPC loop and the executor's call into it, an evaluation harness's evaluation run: most often the engine
#   running requests (V0's memory profile also ran execute_model, but its profile_run frame places that).
_WEAK_FRAME_STAGES = re.compile(r"\b(?P<load>launch_builtin_model|_serve_model_instance)\b"
                                r"|\b(?P<runtime>execute_model|sample_tokens|worker_busy_loop|collective_rpc"
                                r"|cli_evaluate|simple_evaluate)\b")


def _weak_frame_stage(frames: str) -> str | None:
    """The step the deepest weak frame makes likely (None: no such frame)."""
    deepest = None
    for match in _WEAK_FRAME_STAGES.finditer(frames):
        deepest = match.lastgroup
    return deepest


# The error an API server answers with once its engine's loop has died, quoting the error that killed it.
_DEAD_ENGINE_QUOTING = re.compile(r"Engine loop is not running\. Inspect the stacktrace to find the original error")


# V0's worker reporting which of the executor's calls it failed in ("Exception in worker VllmWorkerProcess while
# processing method determine_num_available_blocks").
_WORKER_METHOD = re.compile(r"while processing method \w+")


def _step_any_process_names(run: _Run) -> str | None:
    """Workers fail together and their tracebacks interleave (or are cut): a step another process names in its
    frames, or in its "while processing method" line, is the step the start was in."""
    return _frame_stage(_ENGINE_START_FRAMES.sub("", "\n".join(
        line.message for line in run.lines if line.is_frame or _WORKER_METHOD.search(line.message))))


def _phase_of(run: _Run, lines: list[Line], line: Line, default: str) -> str:
    frames = _frame_text(lines, line.index)
    frame_stage = _frame_stage(frames)
    if frame_stage == "load" and _frame_stage(_ENGINE_START_FRAMES.sub("", frames)) is None:
        # only the engine's own start frames, which span every step of a start: another process may name the step
        frame_stage = _step_any_process_names(run) or frame_stage
    stage = _later(run.stage_at(line.index), frame_stage)
    if stage is None and any(_CONFIG_VALIDATION.search(near.message)
                             for near in lines[max(0, line.index - 6):line.index + 7]):
        return "load"  # pydantic validates the config before anything starts (what fails with it fails then)
    if stage is None and (_REQUEST_LOGGER.search(line.raw) or _FOR_A_REQUEST.search(line.message)) \
            and not _SERVER_WARMUP_WORDS.search(line.message):
        return "runtime"  # logged by the API server's per-request code, or naming its request: one was being served
    if stage is None and _DEAD_ENGINE_QUOTING.search(line.message):
        return "runtime"  # the dead-engine error that quotes the original one: the engine's loop had been running
    if stage is None:
        # A line with no timeline ("NCCL WARN Cuda failure ...") is reported by the traceback or
        # wrapper that follows it ("WorkerProc failed to start ... in init_device"): its step decides.
        stage = _frame_stage(_ENGINE_START_FRAMES.sub("", _following_failure(lines, line.index)))
    if stage is None:
        stage = _stage_of_progress_after(lines, line.index)
    if stage is None:
        told = _phase_told_by_the_engine(run, lines, line)
        # "failed to start" rules out runtime only: a family that usually strikes while serving (a kernel
        # fault) struck in the last step before it.
        stage = ("startup" if default == "runtime" else None) if told == "before serving" else told
    if stage is None and default == "runtime":
        return default  # a family that strikes while serving (a kernel fault): a bare forward pass is a request's
    stage = stage or _forward_stage(_frame_text(lines, line.index))
    stage = stage or _step_any_process_names(run)
    if stage is None and default == "unknown":
        stage = _weak_frame_stage(_frame_text(lines, line.index))
    return stage or default


def _promoted(risks: list[dict[str, Any]], before: int) -> dict[str, Any] | None:
    """The risk logged last before the failure, which explains it when the failure itself says nothing (of "no
    device platform" and then "vllm._C did not load", the nearer one is the more specific)."""
    return next((risk for risk in reversed(risks) if risk["explains"] and risk["index"] <= before), None)


def _risk_finding(risk: dict[str, Any], what: str) -> Finding:
    return Finding(cause=f"{risk['risk']} A failure followed ({what}).",
                   steps=[risk["next_step"], "Read the full traceback for the failing call"])


# A TimeoutError raised without a message whose frames name nothing: something waited too long (most often the
# engine's step loop on its workers).
_BARE_TIMEOUT = re.compile(r"^\s*(?:\w+\.)*TimeoutError\s*:?\s*$")
_BARE_TIMEOUT_FINDING = Finding(
    cause="A wait timed out (a TimeoutError without a message): most often the engine's step waiting on its workers, "
          "one of which hung or is far slower (a stuck collective, a long compile, a dead rank).",
    steps=["Read the frames above the TimeoutError for what waited; rerun with NCCL_DEBUG=INFO and dump the workers' "
           "stacks (py-spy dump --pid) while it hangs",
           "If steps are just slow (a first compile, very long prompts), raise VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS"])


# Python's own exception types with a message that names no cause ("IndexError: map::at", "KeyError: 'x'"): what
# failed is said by the frames they were raised in, as for an exception with no message.
_GENERIC_EXCEPTION = re.compile(r"^(?:IndexError|KeyError|AttributeError|TypeError|ValueError|AssertionError)\b")


# vLLM's error answer to a request, as a client shows it: its JSON body with a 4xx code (the server refused the request
# and kept serving).
_CLIENT_ERROR_ANSWER = re.compile(r"[\"']object[\"']: ?[\"']error[\"'].*[\"']code[\"']: ?(4\d\d)\b")


def _unclassified(run: _Run, lines: list[Line], first_error: Line, default_phase: str,
                  also: list[Line], outcome: _Outcome) -> dict[str, Any]:
    found = _UNCLASSIFIED.match(first_error.message)
    text = found.group(0).strip() if found else first_error.message.strip()
    phase = _phase_of(run, lines, first_error, default_phase)
    risk = _promoted(outcome.risks, first_error.index)
    if risk is not None:
        return _result(phase, _risk_finding(risk, text[:200]), risk["rule"], risk["explains"],
                       _evidence(lines, [first_error, *also]), first_error, outcome)
    if not _EXCEPTION.match(first_error.message) or _BARE_EXCEPTION.match(first_error.message) \
            or _GENERIC_EXCEPTION.match(first_error.message):
        # Not an exception but a line logged inside a traceback, or an exception with no message ("TimeoutError"):
        # the frames around it say what failed.
        named = _frame_cause(_frame_text(lines, first_error.index))
        if named is not None:
            return _result(_or_family_phase(phase, named[0]), named[1], "traceback_frames", named[0],
                           _evidence(lines, [first_error, *also]), first_error, outcome)
        if _BARE_TIMEOUT.match(first_error.message):
            return _result(phase, _BARE_TIMEOUT_FINDING, "bare_timeout", "timeout",
                           _evidence(lines, [first_error, *also]), first_error, outcome)
    refused = _CLIENT_ERROR_ANSWER.search(first_error.raw)
    if refused is not None:
        outcome.healthy = True
        return _result("none", Finding(
            cause=f"The server answered a request with {refused.group(1)}: it refused the client's request and kept "
                  f"serving (a client error, not a failure of the server): {text[:200]}",
            steps=["Fix the request: its message names what the server refused (a missing field, a route or task this "
                   "model is not served for); compare with the route's schema at /docs",
                   "If the route should work for this model, check the task it was started with (`--task`, "
                   "`--runner`) in the unit's argv"]),
            "client_request_refused", "healthy", _evidence(lines, [first_error]), first_error, outcome)
    finding = Finding(cause=f"An error no rule recognises: {text[:300]}",
                      steps=[f"Read the first error line and the traceback above it: {text[:300]}",
                             *_gather_more(_frame_text(lines, first_error.index))[1:]])
    return _result(phase, finding, "unclassified_error", "unknown", _evidence(lines, [first_error, *also]),
                   first_error, outcome)


_FRAME_CAUSES = (
    # A spawned worker re-ran the main script (multiprocessing's _fixup_main_from_path -> runpy) and the traceback
    # stops at that script's top level, or at its LLM(...) there: the script builds the engine without an
    # `if __name__ == "__main__":` guard, so every spawned child builds another one.
    (re.compile(r"(?s)in _fixup_main_from_path\n.*?, in <module>\n(?:\s*\Z|\s+(?:\w+\s*=\s*)?(?:[\w.]+\.)?LLM\()"),
     "worker_start_method",
     "A worker process started with spawn re-ran the main script, whose top level builds the engine (LLM(...)): the "
     "script has no `if __name__ == \"__main__\":` guard.",
     ["Put the code that builds the engine under `if __name__ == \"__main__\":` (spawned workers import the main "
      "script)",
      "Or run it through `vllm serve` / a module entry point rather than a bare script"]),
    # A traceback that ends in a chain of `<module>` frames failed while Python imported modules, whatever the
    # modules are about (a quantization method's, an attention backend's): that is checked first.
    # (an excerpt may stop inside the next frame's line: `  File "<repo_r`; an import hook's frames may sit between
    # the modules: `_custom_import`; or two whose source lines are imports: a console script importing vLLM's CLI)
    (re.compile(r"(?s)\A(?:[^\n]*\n)*?(?:(?:\s*File \"[^\"]*\", line \d+, in (?:<module>|_custom_import"
                r"|_call_with_frames_removed|exec_module)\n(?:\s+[^\n]*\n)?){3,}"
                r"|(?:\s*File \"[^\"]*\", line \d+, in <module>\n\s+(?:from \S+ )?import [^\n]*\n){2,})"
                r"(?:\s*File \"[^\"\n]*\n)?\s*\Z"),
     "dependency_error",
     "vLLM failed while importing its own modules (a chain of `<module>` frames): a broken or mismatched "
     "install (compiled extension, torch or transformers version).",
     ["Reinstall vLLM with the torch/transformers versions it was built for, in a clean venv"]),
    # ... or an import statement entered a module whose top level fails (a platform plugin's model runner importing
    # a name its dependency no longer has)
    (re.compile(r"(?s)\n\s*(?:from \S+ )?import [^\n]*\n\s*File \"[^\"]*\", line \d+, in <module>\n"
                r"(?:\s+[^\n]*\n)?\s*\Z"),
     "dependency_error",
     "The traceback ends at the top level of a module an import statement entered (its error line is not in the lines "
     "read): most often that module imports a name its installed dependency does not have (an ImportError).",
     ["Read the error line under the traceback; install the dependency version the importing package (vLLM or its "
      "plugin) was built against"]),
    # The deepest frame is the model registry raising for an architecture it has no class for (its ValueError line
    # cut off): the model's architecture is not supported by this vLLM (or not registered in this process).
    (re.compile(r"(?s)in _raise_for_unsupported(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,4}\Z"),
     "architecture_unsupported",
     "The traceback ends in vLLM's model registry refusing the checkpoint's architecture (its error line is not in the "
     "lines read): this vLLM has no implementation of it, or an out-of-tree model was not registered in this process.",
     ["Check `architectures` in config.json against the supported models of this vLLM release; upgrade vLLM, or "
      "register the plugin model where every worker imports it (a vLLM plugin entry point, not only the driver)"]),
    # The deepest frames are a tool-call or reasoning parser's, run on a request's output: that request failed.
    (re.compile(r"(?s)(?:tool_parsers?/\w+\.py|_tool_parser\.py|reasoning_parsers?/\w+\.py)(?:(?!\n).)*"
                r"(?:\n(?:(?!\n).)*){0,6}\Z"),
     "request_invalid",
     "The traceback ends in a tool-call or reasoning parser working on a request's output (its error line is not in "
     "the lines read): the parser failed on that request; the server keeps serving.",
     ["Check that --tool-call-parser / --reasoning-parser and the chat template match the model's output format",
      "Update vLLM or the parser if it raises on well-formed output"]),
    # ... or the structured-output backend's, compiling a request's JSON schema, regex or grammar: that request failed.
    (re.compile(r"(?s)(?:in _create_grammar|in compile_grammar|compile_json_schema|compile_regex)(?:(?!\n).)*"
                r"(?:\n(?:(?!\n).)*){0,6}\Z"),
     "request_invalid",
     "The traceback ends while the structured-output backend compiled a request's JSON schema, regex or grammar (its "
     "error line is not in the lines read): the backend could not compile what that request asked for.",
     ["Check the request's response_format or guided schema against what the backend supports (xgrammar rejects some "
      "JSON-schema features that the guidance or outlines backends accept)",
      "Update vLLM and xgrammar if a valid schema fails to compile"]),
    # The deepest frame reads the checkpoint's quantization settings (get_quant_config raises when --quantization names
    # a method the checkpoint has no settings for, or they do not parse).
    (re.compile(r"(?s)in get_quant_config\b(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,4}\Z"),
     "config_invalid",
     "The traceback ends while vLLM read the checkpoint's quantization settings (its error line is not in the lines "
     "read): --quantization names a method the checkpoint has no settings for, or its quantization config is "
     "missing or does not parse.",
     ["Drop --quantization so vLLM uses the checkpoint's own config.json, or check the checkpoint's "
      "quantization_config (config.json) / quant_config.json against the method"]),
    # ... or transformers deciding whether the checkpoint's own code may run (resolve_trust_remote_code raises its
    # ValueError only when the model ships code and trust_remote_code is not set).
    (re.compile(r"(?s)in resolve_trust_remote_code\b(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,4}\Z"),
     "remote_code_required",
     "The traceback ends in transformers refusing to run the checkpoint's own code (resolve_trust_remote_code; its "
     "error line is not in the lines read): the model ships Python code (auto_map in config.json) and the server ran "
     "without --trust-remote-code.",
     ["Read the model directory's custom *.py files, then start with --trust-remote-code (trust_remote_code: true)"]),
    # ... or torch's extension builder comparing its CUDA version with nvcc's while vLLM's kernels build (the error
    # cut off: torch.version.cuda is None in a torch built without CUDA).
    (re.compile(r"(?s)in _check_cuda_version\b(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,4}\Z"),
     "dependency_error",
     "The traceback ends in torch's extension builder comparing its CUDA version with the compiler's while vLLM's "
     "kernels were built (its error line is not in the lines read): most often the build's torch has no CUDA "
     "(a CPU wheel in pip's isolated build environment).",
     ["Install a prebuilt vLLM wheel for the host's Python and CUDA; to build, install torch's CUDA wheel first and "
      "build with --no-build-isolation"]),
    # ... or a Mistral-format checkpoint's params.json (--config-format / --tokenizer-mode mistral).
    (re.compile(r"(?s)in load_params_config\b(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,4}\Z"),
     "config_invalid",
     "The traceback ends while vLLM read a Mistral-format checkpoint's params.json (--config-format, --load-format or "
     "--tokenizer-mode mistral): the file is missing from the checkpoint or not what vLLM expects.",
     ["Serve a checkpoint that has params.json (Mistral's own format), or drop the mistral format flags for a "
      "Hugging Face-format checkpoint (config.json)"]),
    # The deepest frame is the base platform's (vllm/platforms/interface.py raises NotImplementedError for what only a
    # device platform implements): vLLM found no device platform and runs on UnspecifiedPlatform.
    (re.compile(r"(?s)vllm/platforms/interface\.py(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,3}\Z"),
     "driver_or_runtime",
     "The traceback ends in vLLM's base platform, which implements nothing a device needs: vLLM detected no device "
     "platform (UnspecifiedPlatform), so torch sees no CUDA/ROCm device in this process.",
     ["Check the GPUs inside the process's environment: `python -c 'import torch; print(torch.cuda.is_available())'` "
      "in the same container (the NVIDIA runtime or CDI devices passed to docker/podman, the driver)",
      "Check torch's CUDA build against the driver (`nvidia-smi` shows the highest CUDA it supports)"]),
    # The deepest frames set up NCCL communicators (pynccl, the model-parallel groups): NCCL failed.
    (re.compile(r"(?s)(?:pynccl|PyNcclCommunicator|NCCLCommunicator|ncclCommInitRank|init_model_parallel_group"
                r"|GroupCoordinator|initialize_model_parallel)(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,6}\Z"),
     "nccl_error",
     "The traceback ends while vLLM set up NCCL communicators between the GPUs (its error line is not in the "
     "lines read): NCCL failed to initialise.",
     ["Rerun with NCCL_DEBUG=INFO to see the failing transport",
      "Usual fixes: --ipc=host / a large --shm-size, NCCL_P2P_DISABLE=1 on GPUs without P2P, NCCL_SOCKET_IFNAME"]),
    # ... or waited on the TCP store of torch.distributed's rendezvous.
    (re.compile(r"(?s)(?:_create_c10d_store|TCPStore\(|init_process_group|rendezvous)(?:(?!\n).)*"
                r"(?:\n(?:(?!\n).)*){0,6}\Z"),
     "distributed_network",
     "The traceback ends in torch.distributed's rendezvous (the TCP store every rank must join; its error line "
     "is not in the lines read): a rank did not reach the store.",
     ["Check every rank started and can reach the master address and port (VLLM_HOST_IP, "
      "GLOO_SOCKET_IFNAME/NCCL_SOCKET_IFNAME, firewall)"]),
    # ... or waited for the workers' reply to a step (the shared-memory queue): a worker hung or died.
    (re.compile(r"(?s)(?:get_response|dequeue|acquire_read|ray/experimental/channel/)(?:(?!\n).)*"
                r"(?:\n(?:(?!\n).)*){0,4}\Z"), "timeout",
     "The traceback ends while the engine waited for the workers' reply to a step (vLLM's shared-memory queue, "
     "Ray's compiled-graph channels; its error line is not in the lines read): a worker hung or died.",
     ["Find the worker that stopped: its own error above, py-spy dump --pid on a hung one, NCCL_DEBUG=INFO for "
      "a stuck collective",
      "Raise VLLM_RPC_TIMEOUT / VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS only if a step is legitimately slow"]),
    # ... or placed its workers on the Ray cluster (the placement group, the cluster's GPUs, the `ray` CLI).
    (re.compile(r"(?s)(?:_init_workers_ray|initialize_ray_cluster|ray/scripts/|ray_utils\.py)(?:(?!\n).)*"
                r"(?:\n(?:(?!\n).)*){0,4}\Z"),
     "ray_error",
     "The traceback ends while vLLM placed its workers on the Ray cluster (its error line is not in the lines "
     "read): the cluster's nodes, GPUs or placement group do not fit what the engine asks for.",
     ["Run `ray status` on the head node: every node joined, the GPUs the engine asks for are free, and the "
      "node running vLLM has a GPU (VLLM_HOST_IP matches the address Ray uses)"]),
    # (V0's workers check the KV cache's size in initialize_cache, named by the wrapper that reports their error)
    (re.compile(r"\b(?:raise_if_cache_size_invalid|_?check_enough_kv_cache_memory|initialize_cache)\b"),
     "kv_cache_insufficient",
     "The traceback ends in vLLM's KV-cache size check (its message is not in the lines read): the KV cache "
     "cannot hold max_model_len after the memory profile.",
     ["Lower max_model_len (or --max-model-len auto), or raise gpu_memory_utilization"]),
    # ... or made the worker's GPU current (the first CUDA call of a worker: driver and CUDA runtime meet there).
    (re.compile(r"(?s)(?:set_device|_cuda_setDevice|cudaGetDeviceCount|_cuda_init)(?:(?!\n).)*"
                r"(?:\n(?:(?!\n).)*){0,4}\Z"),
     "driver_or_runtime",
     "The traceback ends while the worker made its GPU current (the first CUDA call; its error line is not in the "
     "lines read): the driver, the CUDA runtime of the build or the visible devices do not fit.",
     ["Run `nvidia-smi` and `python -c 'import torch; print(torch.cuda.device_count())'` in the service's "
      "environment; match the driver to the CUDA of the torch build (Error 803/804: the container's CUDA user "
      "libraries do not match the host driver)"]),
    # ... or a weight loader's check that a checkpoint tensor has the parameter's shape (the assert itself, printed
    # as the frame's source line, with the AssertionError cut off or bare; the parameter may be its slice)
    (re.compile(r"(?s)\bassert (?:param(?:_data|_slice)?|loaded_weight)\.(?:shape|size\(\)|dtype)\b[^\n]*==[^\n]*"
                r"(?:param(?:_data|_slice)?|loaded_weight)\b[^\n]*\s*(?:[~^]+\s*)?(?:AssertionError\s*)?\Z"),
     "weights_mismatch",
     "The traceback ends in a weight loader's check that a checkpoint tensor fits its parameter (its error line is "
     "not in the lines read): the checkpoint's tensors do not have the shapes this model code expects (another "
     "quantization or packing, another revision of the model, a tensor-parallel split it does not divide).",
     ["Check the checkpoint's format against what this vLLM loads for the model (quantization config, "
      "load_format), and that tensor_parallel_size divides the sharded dimensions"]),
    (re.compile(r"\b_check_if_gpu_supports_dtype\b"), "dtype_unsupported",
     "The traceback ends in vLLM's check that the GPU supports the model's dtype (its message is not in the "
     "lines read): most often bfloat16 on a GPU older than compute capability 8.0.",
     ["Set dtype explicitly (--dtype half on V100/T4 class GPUs)"]),
    # ... or chose the layers' quantization kernels (the checkpoint's scheme against this GPU).
    (re.compile(r"(?s)(?:get_quant_method|get_scheme|/layers/quantization/)(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,6}\Z"),
     "quantization_unsupported",
     "The traceback ends while vLLM chose the quantization kernels for the model's layers (its error line is "
     "not in the lines read): the checkpoint's quantization scheme is not supported on this GPU or build.",
     ["Check the scheme's minimum compute capability against the GPU; use a checkpoint quantized for it (or "
      "the unquantized one)"]),
    # ... or read the checkpoint's tensors (the weights generator a model's load_weights iterates, the safetensors
    # reader): what fails there is the file (an incomplete download, a header that does not deserialize).
    (re.compile(r"(?s)(?:\w+_weights_iterator|_groupby_prefix|safe_open\(|for \w+(?:, \w+)* in weights\)?$)"
                r"(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,3}\Z", re.MULTILINE),
     "weights_corrupt",
     "The traceback ends while vLLM read the checkpoint's tensors (its error line is not in the lines read): most "
     "often a weight file that is incomplete or corrupt (a header that does not deserialize).",
     ["Check the weight files against the repository's sizes and hashes (huggingface-cli download again, or "
      "`sha256sum` against the model card); remove partial downloads"]),
    # ... or looked a checkpoint tensor's name up among the model's parameters (`params_dict[name]` in a model's
    # load_weights): the checkpoint names a tensor this model class does not have.
    (re.compile(r"(?s)params_dict\[name\](?:(?!\n).)*(?:\n(?:(?!\n).)*){0,1}\Z"),
     "weights_mismatch",
     "The traceback ends while the model class looked up a checkpoint tensor by name (its error line, most often a "
     "KeyError, is not in the lines read): the checkpoint holds a tensor this model class does not define.",
     ["Check the checkpoint against the architecture in config.json (a tied lm_head, a fine-tune's extra or renamed "
      "tensors, a quantization's scales); serve it with a vLLM release that knows that layout"]),
    # ... or applied a request's logit_bias in the forward pass (V0): a token id the request names outside the
    # vocabulary fails there.
    (re.compile(r"(?s)logit_bias_logits_processor(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,2}\Z"),
     "request_invalid",
     "The traceback ends while a request's logit_bias was applied to the logits (its error line is not in the lines "
     "read): the request names a token id outside the model's vocabulary.",
     ["Have the client send token ids below the model's vocabulary size in logit_bias; vLLM releases that validate "
      "logit_bias refuse such a request with a 400 instead"]),
    # ... or chose the attention backend for a layer (the head size, dtype, sinks or MLA against this GPU/platform).
    (re.compile(r"(?s)(?:get_attn_backend\w*|attention/selector\.py)(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,6}\Z"),
     "attention_backend_unsupported",
     "The traceback ends while vLLM chose the attention backend for the model's layers (its error line is not in "
     "the lines read): no backend on this GPU or platform supports the layer (head size, dtype, attention sinks, "
     "MLA).",
     ["Read the error line for the backends it tried and why each was refused",
      "Pick a backend that fits with VLLM_ATTENTION_BACKEND / --attention-backend, or run the model on a GPU "
      "or platform that supports it"]),
    # ... or validated a request (the prompt against max_model_len, its parameters).
    (re.compile(r"(?s)(?:_validate_and_add_requests|_validate_model_inputs?|process_inputs|_preprocess_chat"
                r"|_tokenize_prompt_input\w*)(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,6}\Z"),
     "request_invalid",
     "The traceback ends while vLLM validated a request (its error line is not in the lines read): the prompt "
     "or its parameters were rejected (most often prompt + max_tokens over max_model_len).",
     ["Read the request's error (the 400 body, or the exception under the traceback); keep prompt + max_tokens "
      "<= max_model_len"]),
    # ... or built the tokenizer (from the model's tokenizer files and the installed transformers).
    (re.compile(r"(?s)(?:init_tokenizer_from_configs|get_tokenizer(?:_group)?|transformers/tokenization_\w+\.py"
                r"|transformers/models/auto/tokenization_auto\.py)(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,4}\Z"),
     "tokenizer_error",
     "The traceback ends while vLLM built the tokenizer (its error line is not in the lines read): the tokenizer "
     "files and the installed transformers do not fit (a tokenizer class it does not know, a missing file).",
     ["Load the tokenizer alone: python -c \"from transformers import AutoTokenizer; "
      "AutoTokenizer.from_pretrained('<model>', trust_remote_code=True)\"; upgrade transformers or pass "
      "--tokenizer / --tokenizer-mode"]),
    # ... or bound a ZMQ socket (the engine's and the workers' message queues): the address is taken.
    (re.compile(r"(?s)(?:zmq/sugar/socket\.py|\w*socket\.bind\()(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,4}\Z"),
     "port_in_use",
     "The traceback ends while vLLM bound a ZMQ socket for its message queues (its error line is not in the lines "
     "read): the address or port is already in use (another server, a stale process, or two instances given the same "
     "port range).",
     ["Find the holder (`ss -ltnp`), stop the stale process, or give each instance its own ports (VLLM_PORT, "
      "--data-parallel-rpc-port, the multi-node master port)"]),
    # ... or ran the tensor-parallel all-reduce (NCCL between the GPUs; the custom all-reduce kernel is named apart).
    (re.compile(r"(?s)(?:tensor_model_parallel_all_reduce|in all_reduce\b|torch\.distributed\.all_reduce"
                r"|torch\.distributed\.all\Z)(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,3}\Z"),
     "nccl_error",
     "The traceback ends in the tensor-parallel all-reduce between the GPUs (its error line is not in the lines "
     "read): most often NCCL failed (a transport, shared memory, P2P between the GPUs).",
     ["Rerun with NCCL_DEBUG=INFO to see the failing transport",
      "Usual fixes: --ipc=host / a large --shm-size, NCCL_P2P_DISABLE=1 on GPUs without P2P, "
      "--disable-custom-all-reduce"]),
    # ... or ran the memory profile: the model's first forward pass, at the largest batch. Whatever the forward pass
    # breaks on fails there first (a kernel or op this build or GPU lacks, compilation, a model-code bug), memory only
    # one of them: the frames alone do not name the cause.
    (re.compile(r"(?s)(?:profile_run|determine_num_available_blocks|determine_available_memory)(?:(?!\n).)*"
                r"(?:\n(?:(?!\n).)*){0,3}\Z"),
     "unknown",
     "The traceback ends in the memory profile, the model's first forward pass at the largest batch (its error line "
     "is not in the lines read): the first step that runs the model's kernels, so a missing kernel or op, a "
     "compilation failure or the profiling peak not fitting the GPU all fail here.",
     ["Read the error line under the traceback (raise `lines`): CUDA out of memory there means lowering "
      "max_num_seqs / max_num_batched_tokens (a smaller profiling batch) or max_model_len (multimodal models: "
      "--limit-mm-per-prompt); a kernel or op error means the build or GPU; retry with --enforce-eager to rule out "
      "compilation"]),
    (re.compile(r"torch/_inductor/(?!runtime/static_cuda_launcher)|torch/_dynamo/|torch/_functorch/"
                # Triton compiling a kernel (its passes: make_ttir, make_ttgir, make_llir, make_ptx, ...)
                r"|triton/compiler/compiler\.py|triton/backends/\w+/compiler\.py"), "compile_error",
     "The failure is inside torch.compile (Inductor/Dynamo/AOTAutograd frames); its error line is not in the "
     "lines read.",
     ["Start with --enforce-eager (or -O0) to confirm; clear the torch_compile_cache under VLLM_CACHE_ROOT"]),
    # ... or in Triton's launcher, which compiles a kernel (or reads it from its cache) on its first call
    (re.compile(r"(?s)triton/runtime/(?:jit|autotuner)\.py(?:(?!\n).)*(?:\n(?:(?!\n).)*){0,2}\Z"), "compile_error",
     "The traceback ends in Triton's kernel launcher, which compiles the kernel (or loads it from its cache) on its "
     "first call; its error line is not in the lines read.",
     ["Read the error line under the traceback; clear Triton's cache (~/.triton/cache, TRITON_CACHE_DIR) and give each "
      "worker process a writable cache directory"]),
    # ... or imported a module through Python's import machinery (importlib.import_module, a console script's entry
    # point, vLLM's lazy imports and model registry): what fails there is the import (a missing or mismatched package,
    # a compiled extension built for another torch).
    (re.compile(r"(?s)(?:\bimport_module\b|_gcd_import|_find_and_load|\bload_entry_point\b)(?:(?!\n).)*"
                r"(?:\n(?:(?!\n).)*){0,4}\Z"),
     "dependency_error",
     "The traceback ends while Python imported a module (importlib, a console script's entry point; its error line "
     "is not in the lines read): most often a package missing or not matching the installed vLLM/torch (an "
     "ImportError, an undefined symbol).",
     ["Read the error line under the traceback; reinstall vLLM with the torch/transformers versions it was built for, "
      "in a clean venv"]),
    # ... or vLLM ran a general plugin's entry point (load_general_plugins, at engine arguments' creation and in each
    # worker) and the traceback ends in the plugin's own code: a plugin written for another vLLM version.
    (re.compile(r"(?s)\bload_general_plugins\b.*\n\s*File \"(?![^\"]*/vllm/)[^\"]*\", line \d+, in \w+\n"
                r"(?:\s+[^\n]*\n)?\s*\Z"),
     "dependency_error",
     "The traceback ends in a vLLM plugin's own code, run by vLLM's plugin loader (its error line is not in the lines "
     "read): the plugin, installed in the same environment, does not match the installed vLLM.",
     ["Install the plugin version made for the installed vLLM, or uninstall it (pip list; entry points in the "
      "vllm.general_plugins group); VLLM_PLUGINS limits which plugins load"]),
)


# The phase of a cause's family, for a traceback that names no step (corpus README, "Phase").
_CAUSE_FAMILY_PHASE = {"nccl_error": "startup", "distributed_network": "startup", "compile_error": "startup",
                       "kv_cache_insufficient": "startup", "dependency_error": "load", "driver_or_runtime": "startup",
                       "dtype_unsupported": "load", "quantization_unsupported": "load", "request_invalid": "runtime",
                       "tokenizer_error": "load", "gpu_oom": "startup", "attention_backend_unsupported": "load",
                       "weights_corrupt": "load", "port_in_use": "startup", "worker_start_method": "load",
                       "architecture_unsupported": "load"}


def _or_family_phase(phase: str, cls: str) -> str:
    """A phase no step placed takes the phase of the cause's family."""
    return _CAUSE_FAMILY_PHASE.get(cls, phase) if phase == "unknown" else phase


def _frame_cause(text: str) -> tuple[str, Finding] | None:
    text = _DISABLED_DYNAMO_CALL.sub(r"\1", text)
    for pattern, cls, cause, steps in _FRAME_CAUSES:
        if pattern.search(text + "\n"):
            return cls, Finding(cause=cause, steps=[*steps, *_gather_more(text)[1:]])
    return None


def _truncated_traceback(run: _Run, lines: list[Line], outcome: _Outcome) -> dict[str, Any] | None:
    """Frames were logged but no error line: the excerpt stops inside a traceback."""
    frames = [line for line in run.lines if line.is_frame or _TRACEBACK.match(line.message)]
    if not frames or all(line.quiet for line in frames):
        # (a traceback logged at WARNING or below, `logger.warning(..., exc_info=True)`, is an exception the code
        # caught and went on from: its warning is a risk, not a failure)
        return None
    last = frames[-1]
    # The evidence is the last frame or source line, not the caret marks Python 3.11+ prints under it.
    shown = next((line for line in reversed(frames) if not _CARETS.match(line.message)), last)
    # The source line printed under each frame is part of it ("[rank0]: llm = LLM.from_engine_args(...)"
    # loses its indentation with the rank prefix).
    under = [lines[line.index + 1] for line in frames
             if line.index + 1 < len(lines) and lines[line.index + 1].tag == line.tag]
    picked = sorted({ln.index: ln for ln in [*frames, *under]}.values(), key=lambda ln: ln.index)
    text = "\n".join(line.message for line in picked)
    phase = (_later(run.stage_at(last.index), _frame_stage(text)) or _forward_stage(text) or _weak_frame_stage(text)
             or "unknown")
    risk = _promoted(outcome.risks, last.index)
    if risk is not None:
        return _result(phase, _risk_finding(risk, "a traceback whose error line is not in the lines read"),
                       risk["rule"], risk["explains"], _evidence(lines, [shown]), None, outcome)
    named = _frame_cause(text)
    if named is not None:
        return _result(_or_family_phase(phase, named[0]), named[1], "traceback_frames", named[0],
                       _evidence(lines, [shown]), None, outcome)
    finding = Finding(cause="A traceback without its error line: the lines read stop inside it.",
                      steps=["Read more of the log (raise `lines`) for the exception at the end of the traceback",
                             *_gather_more(text)])
    return _result(phase, finding, "truncated_traceback", "unknown", _evidence(lines, [shown]), None, outcome)


def _healthy(run: _Run, lines: list[Line], clients: list[_Match], outcome: _Outcome) -> dict[str, Any]:
    outcome.healthy = True
    serving = lines[run.serving] if run.serving is not None else None
    decisive = [serving] if serving is not None else []
    if clients:
        client = clients[0]
        hit = _Hit(match=client.match, line=client.line, lines=lines, run=run,
                   params=_params_from_log(run.lines), phase="none")
        finding = client.rule.build(hit)
        total = sum(entry["count"] for entry in outcome.client_errors)
        if total:
            finding.cause += f" Client errors: {total} ({_client_summary(outcome.client_errors)})."
        return _result("none", finding, client.rule.id, "healthy", _evidence(lines, [*decisive, client.line]),
                       None, outcome)
    finding = Finding(cause="No error in the log: the server started and served.",
                      steps=["If a health or acceptance check failed, read that check's own output (status codes, "
                             "latency, throughput); the engine did not log a failure"])
    return _result("none", finding, "no_error_serving", "healthy", _evidence(lines, decisive), None, outcome)


def _client_summary(errors: list[dict[str, Any]]) -> str:
    return ", ".join(f"{e['count']}x {e['status']} {e['method']} {e['route']}" for e in errors[:5])


# The engine's periodic stats ("Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running:
# 1 reqs"): requests running and nothing computed over successive intervals is an engine that stopped making progress.
_STATS = re.compile(r"Avg prompt throughput: ([\d.]+) tokens/s, Avg generation throughput: ([\d.]+) tokens/s, "
                    r"Running: (\d+) reqs")
STALLED_INTERVALS = 3


def _stalled(run: _Run, lines: list[Line], outcome: _Outcome) -> dict[str, Any] | None:
    """A serving engine whose stats show requests running and no tokens computed, interval after interval."""
    streak: list[Line] = []
    for line in run.lines:
        found = _STATS.search(line.message)
        if found is None:
            continue
        if float(found.group(1)) == 0 and float(found.group(2)) == 0 and int(found.group(3)) > 0:
            streak.append(line)
            if len(streak) >= STALLED_INTERVALS:
                finding = Finding(
                    cause=f"The engine stopped making progress while serving: {len(streak)} stats intervals in a row "
                          "show requests running and no tokens computed (a hang in a step: a stuck collective, a "
                          "worker that died or hangs, a kernel that never returns).",
                    steps=["py-spy dump --pid on the engine and its workers shows where the step hangs",
                           "Rerun with NCCL_DEBUG=INFO (a stuck collective) and VLLM_LOGGING_LEVEL=DEBUG"])
                return _result("runtime", finding, "engine_stalled", "timeout", _evidence(lines, streak[:1]),
                               None, outcome)
        else:
            streak = []
    return None


# The scheduler's queue in the same stats ("Running: 0 reqs, Swapped: 0 reqs, Pending: 1 reqs, GPU KV cache usage:
# 0.0%"; V1 says Waiting): a request that filled the whole KV cache was preempted, and it never fits again, so it waits
# with the cache empty, interval after interval.
_QUEUE_STATS = re.compile(r"Running: (\d+) reqs, (?:Swapped: \d+ reqs, )?(?:Pending|Waiting): (\d+) reqs, "
                          r"GPU KV cache usage: ([\d.]+)%")
_FULL_CACHE_PERCENT = 99.0


def _request_never_rescheduled(run: _Run, lines: list[Line], outcome: _Outcome) -> dict[str, Any] | None:
    """Stats showing the KV cache full under running requests, then requests waiting with nothing running and the
    cache empty for several intervals: the preempted request needs more KV cache than the engine has."""
    full: Line | None = None
    streak: list[Line] = []
    for line in run.lines:
        found = _QUEUE_STATS.search(line.message)
        if found is None:
            continue
        running, waiting, usage = int(found.group(1)), int(found.group(2)), float(found.group(3))
        if running > 0 and usage >= _FULL_CACHE_PERCENT:
            full, streak = line, []
        elif full is not None and running == 0 and waiting > 0 and usage == 0:
            streak.append(line)
            if len(streak) >= STALLED_INTERVALS:
                finding = Finding(
                    cause=f"A request filled the whole KV cache, was preempted, and never fits again: {len(streak)} "
                          "stats intervals in a row show it waiting with nothing running and the cache empty. Its "
                          "prompt plus output needs more KV cache than the engine holds.",
                    steps=["Give the KV cache more room (raise gpu_memory_utilization, or more tensor-parallel GPUs), "
                           "or lower max_model_len so such a request is refused up front",
                           "Cap the request's max_tokens client-side"])
                return _result("runtime", finding, "request_larger_than_kv_cache", "kv_cache_insufficient",
                               _evidence(lines, [full, streak[0]]), None, outcome)
        else:
            streak = []
    return None


# The engine's step loop: an error raised under these frames stopped the engine, not just one request's handling.
_ENGINE_LOOP_FRAMES = re.compile(r"\b(?:run_engine_loop|engine_step|run_busy_loop|_process_engine_step"
                                 r"|step_with_batch_queue)\b")


def _diagnose_run(run: _Run, lines: list[Line], params: dict[str, Any],
                  windows: list[tuple[Stamp, Stamp]]) -> dict[str, Any] | None:
    """The diagnosis of one start, or None when it logged no error."""
    stamps = _line_stamps(run.lines) if windows else {}
    excluded = {index for index, stamp in stamps.items() if _in_windows(stamp, windows)}
    outcome = _Outcome(risks=_risks(run), client_errors=_client_errors(run, excluded))
    matches = [m for m in _matches(run, lines)
               if not (_is_client(m.rule) and m.line.index in excluded)]
    failures = [m for m in matches if not _is_client(m.rule)]
    clients = [m for m in matches if _is_client(m.rule)]
    first_error = _first_error_line(run, run.shutdown)
    if first_error is not None and first_error.index in excluded and not failures:
        first_error = None
    serving_engine = run.serving is not None
    if serving_engine and not failures and (stalled := _stalled(run, lines, outcome)) is not None:
        return stalled
    if not failures and (unschedulable := _request_never_rescheduled(run, lines, outcome)) is not None:
        return unschedulable
    if serving_engine and not failures and (failed := _handler_failed_after_4xx(run, lines, outcome)) is not None:
        return failed
    if serving_engine and not failures and (clients or outcome.client_errors):
        return _healthy(run, lines, clients, outcome)
    best = _best(failures) or (None if serving_engine else _best(clients))
    if best is not None and best.rule.tier == 4:
        # Only a wrapper failed (the engine is dead, requests got 500s), and a request's error was raised in the
        # engine's own loop, or logged before the wrapper by an engine that was not serving (an offline run's
        # request): that request killed the engine (V0 let a bad multimodal input reach the step). So does a wrapper
        # that quotes the request's error as the original one ("MQEngineDeadError: ... the original error:
        # ValueError('Attempted to assign ...')").
        wrapper = best
        best = next((m for m in clients if _ENGINE_LOOP_FRAMES.search(_frame_text(lines, m.line.index))
                     or m.line.index == wrapper.line.index
                     or (not serving_engine and m.line.index < wrapper.line.index)), wrapper)
    if best is None:
        return _no_rule_matched(run, lines, first_error, bool(clients), outcome)
    return _diagnose_match(run, lines, params, best, first_error, outcome)


def _no_rule_matched(run: _Run, lines: list[Line], first_error: Line | None, client_matched: bool,
                     outcome: _Outcome) -> dict[str, Any] | None:
    """No failure rule matched: an error no rule knows, nothing at all while serving, or a cut traceback."""
    serving_engine = run.serving is not None
    if first_error is not None and not (serving_engine and client_matched):
        return _unclassified(run, lines, first_error, "unknown", [], outcome)
    if serving_engine and not _traceback_after(run, -1 if run.joined_while_serving else run.serving):
        return None
    return _truncated_traceback(run, lines, outcome)


def _traceback_after(run: _Run, index: int) -> bool:
    """A traceback logged after the line (uvicorn's "ERROR:    Traceback ..." while serving), not in a destructor and
    not after a requested shutdown."""
    return any(line.index > index and (run.shutdown is None or line.index < run.shutdown) and not line.ignored
               and _TRACEBACK.match(line.message) for line in run.lines)


def _rule_named(rule_id: str) -> Rule:
    return next(rule for rule in RULES if rule.id == rule_id)


_WRAPPER_OF_PHASE = {("engine_startup_failed", "runtime"): _rule_named("engine_dead"),
                     **{("engine_dead", phase): _rule_named("engine_startup_failed") for phase in ("load", "startup")}}


def _diagnose_match(run: _Run, lines: list[Line], params: dict[str, Any], best: _Match, first_error: Line | None,
                    outcome: _Outcome) -> dict[str, Any]:
    """The diagnosis from the rule that matched best (a wrapper rule gives way to what it wraps)."""
    rule, line = best.rule, best.line
    unknown_above = (first_error is not None and not _WRAPPER_ANY.search(first_error.message)
                     and first_error.index < line.index
                     and not run.before_serving(first_error.index))
    if rule.tier == 4 and unknown_above:
        # Only a wrapper matched, and a real error no rule knows sits above it: report that line.
        return _unclassified(run, lines, first_error, rule.default_phase, [line], outcome)
    phase = rule.phase or _phase_of(run, lines, line, rule.default_phase)
    if run.while_serving(line.index) and not rule.before_serving:
        phase = "runtime"
    if rule.tier == 4:
        unwrapped = _what_a_wrapper_wraps(run, lines, line, phase, first_error, outcome)
        if unwrapped is not None:
            return unwrapped
        # Some wrappers are logged both at start and while serving ("Worker proc died unexpectedly", "EngineCore hit
        # an exception"): the phase read from the timeline decides which of the two it reports.
        rule = _WRAPPER_OF_PHASE.get((rule.id, phase), rule)
    finding = rule.build(_Hit(match=best.match, line=line, lines=lines, run=run, params=params, phase=phase))
    if rule.tier == 3 and unknown_above:
        finding.steps.insert(0, f"Read the first error line, above it: {first_error.message.strip()[:300]}")
    return _result(phase, finding, rule.id, rule.cls, _evidence(lines, _decisive_lines(run, lines, rule, line)),
                   first_error, outcome)


# The step a start was in when its wrapper fired, from the last milestone logged before it: a step that only ends with
# a milestone of its own ("torch.compile takes 13.9 s in total") failed when the wrapper follows its opening line.
_STEPS_IN_PROGRESS = (
    (re.compile(r"Dynamo bytecode transform time|Compiling a graph for (?:dynamic|general) shape"
                r"|Start compiling function"),
     "compile_error",
     "The engine failed while torch.compile was compiling the model (the wrapper follows the compile's first "
     "milestone; its error line is not in the lines read).",
     ["Start with --enforce-eager (or -O0) to confirm; clear the torch_compile_cache under VLLM_CACHE_ROOT",
      "Match torch and vLLM versions (a vLLM built for another torch breaks its compile passes)"]),
)


# What follows a 5xx access line when no engine error does: the HTTP app's own exception (uvicorn's "Exception in ASGI
# application") failed in the server's handling of that request (a response it could not build); the engine serves on.
_AFTER_5XX = (
    (re.compile(r"^Exception in ASGI application"),
     "request_invalid",
     "A request failed in the API server's own handling (uvicorn's 'Exception in ASGI application' after its 5xx): "
     "the server could not build the response for that request's parameters; the engine was not the cause.",
     ["Replay the failing request and read the traceback's last lines for the parameter that broke it (echo, "
      "logprobs, tools); drop that parameter or upgrade vLLM to a release that fixes its handling"]),
)
_5XX_ACCESS = re.compile(r'HTTP/[\d.]+" 5\d\d')
_ENGINE_DEATH = re.compile(_WRAPPER_RUNTIME)


def _after_5xx(run: _Run, line: Line) -> tuple[str, Finding] | None:
    if not _5XX_ACCESS.search(line.message) or any(_ENGINE_DEATH.search(ln.message) for ln in run.lines):
        return None
    for after in run.lines:
        if line.index < after.index <= line.index + 3:
            for pattern, cls, cause, steps in _AFTER_5XX:
                if pattern.search(after.message):
                    return cls, Finding(cause=cause, steps=list(steps))
    if any(after.index > line.index and _ENGINE_AT_WORK.search(after.message) for after in run.lines):
        return "request_invalid", Finding(
            cause="Some requests were answered with 5xx while the engine went on generating (tokens per second after "
                  "them, no engine-death wrapper): the server failed those requests' handling (their parameters: "
                  "tools, tool_choice, logprobs, a template), not the engine.",
            steps=["Replay a failing request with its parameters and read the API server's log at DEBUG "
                   "(VLLM_LOGGING_LEVEL=DEBUG) for its traceback; drop the parameter that breaks it or upgrade vLLM",
                   "Other requests are served: no restart is needed"])
    return None


_4XX_ACCESS = re.compile(r'HTTP/[\d.]+" 4\d\d')


def _handler_failed_after_4xx(run: _Run, lines: list[Line], outcome: _Outcome) -> dict[str, Any] | None:
    """A 4xx access line followed by the HTTP app's own exception: the request's handling raised after its answer
    began, so the log holds more than a client's error (the server is not just healthy)."""
    for line in run.lines:
        if not _4XX_ACCESS.search(line.message):
            continue
        after = next((a for a in run.lines if line.index < a.index <= line.index + 3
                      and any(entry[0].search(a.message) for entry in _AFTER_5XX)), None)
        if after is not None:
            finding = Finding(
                cause="A request was refused (4xx) and the API server's handling of it then raised (uvicorn's "
                      "'Exception in ASGI application'): the request's input broke the server's own handling; the "
                      "engine serves on.",
                steps=["Replay the refused request and read the traceback's last lines for the field that broke the "
                       "handling (a malformed tool call or JSON string, a template); fix the client or upgrade vLLM",
                       "Other requests are served: no restart is needed"])
            return _result("runtime", finding, "request_handler_exception", "request_invalid",
                           _evidence(lines, [line, after]), None, outcome)
    return None


# The engine still generating: a throughput line with tokens per second above zero.
_ENGINE_AT_WORK = re.compile(r"Avg prompt throughput: (?!0\.0 tokens/s, Avg generation throughput: 0\.0 )[\d.]+ "
                             r"tokens/s, Avg generation throughput: [\d.]+")


def _step_in_progress(run: _Run, line: Line) -> tuple[str, Finding] | None:
    milestone = next((ln for ln in reversed(run.lines) if ln.index < line.index and not ln.is_frame
                      and any(pattern.search(ln.message) for _stage, pattern in _MILESTONES)), None)
    for pattern, cls, cause, steps in _STEPS_IN_PROGRESS:
        if milestone is not None and pattern.search(milestone.message):
            return cls, Finding(cause=cause, steps=list(steps))
    return None


# V1's multiproc executor: "RuntimeError: Worker failed with error 'cu_seqlens_q must be on CUDA', please check the
# stack trace above for the root cause".
_QUOTED_WORKER_ERROR = re.compile(r"Worker failed with error '(.+)', please check the stack trace above")


def _what_a_wrapper_wraps(run: _Run, lines: list[Line], line: Line, phase: str, first_error: Line | None,
                          outcome: _Outcome) -> dict[str, Any] | None:
    """A wrapper line's cause from a warning logged before it, from the traceback frames above it, or from the step
    the start was in."""
    risk = _promoted(outcome.risks, line.index)
    if risk is not None:
        return _result(phase, _risk_finding(risk, line.message.strip()[:200]), risk["rule"], risk["explains"],
                       _evidence(lines, [line]), first_error, outcome)
    quoted = _QUOTED_WORKER_ERROR.search(line.message)
    if quoted is not None:
        # The executor re-raises a worker's error where it waited for the reply: its frames are the wait's, the error
        # is the quoted one (had a rule known it, that rule would have matched this line).
        text = quoted.group(1)
        finding = Finding(cause=f"A worker failed with an error no rule recognises, quoted by the engine: {text[:300]}",
                          steps=[f"Read the worker's own traceback above this line for: {text[:200]}",
                                 *_gather_more(_frame_text(lines, line.index))[1:]])
        return _result(phase, finding, "worker_error_quoted", "unknown", _evidence(lines, [line]), first_error,
                       outcome)
    named = _frame_cause(_frame_text(lines, line.index))
    if named is not None:
        return _result(_or_family_phase(phase, named[0]), named[1], "traceback_frames", named[0],
                       _evidence(lines, [line]), first_error, outcome)
    in_progress = _step_in_progress(run, line)
    if in_progress is not None:
        return _result(phase, in_progress[1], "step_in_progress", in_progress[0], _evidence(lines, [line]),
                       first_error, outcome)
    handler = _after_5xx(run, line)
    if handler is not None:
        return _result(phase, handler[1], "request_handler_exception", handler[0], _evidence(lines, [line]),
                       first_error, outcome)
    return None


def _decisive_lines(run: _Run, lines: list[Line], rule: Rule, line: Line) -> list[Line]:
    """The matched line, the first line each of the rule's hints finds, and the serving line when it came after."""
    decisive = [line]
    for hint in rule.hints:
        hinted = next((ln for ln in run.lines if hint.search(ln.message)), None)
        if hinted is not None:
            decisive.append(hinted)
    if run.serving is not None and line.index > run.serving:
        decisive.append(lines[run.serving])
    return decisive


# Risks that, logged while serving, say the engine stalls (a worker does not answer the shared-memory queue).
_STALL_RISKS = {"shm_broadcast_wait"}


# A wait vLLM logs again and again while it makes no progress (the API server waiting for its engine process, Ray
# for a placement group, a rank for the others); the steps say what each one waits on.
_WAIT = re.compile(r"\b[Ww]aiting (?:for|on|until)\b|\bstill waiting\b")
_WAITED_ON = (
    (re.compile(r"core engine proc|engine core|EngineCore|engine process"),
     ["The API server waits for its engine process: that process's own lines (EngineCore, worker ranks) say where "
      "it stopped; with none, py-spy dump --pid on it shows the stuck step",
      "A multi-GPU start stuck there is often NCCL: rerun with NCCL_DEBUG=INFO (and --disable-custom-all-reduce)"]),
    (re.compile(r"placement group|Ray|resources"),
     ["Run `ray status`: the cluster must offer every GPU the placement group asks for, on the nodes it names"]),
)
STUCK_WAIT_REPEATS = 2


def _stuck_wait(log_lines: list[Line], phase: str) -> tuple[Finding, Line] | None:
    """The log ends in the same wait, logged by vLLM again and again: the start is stuck in it (a hang, no error).
    (A wrapper's own polls, "Waiting for the server ... Attempt 9/100", are not vLLM's lines: it may be slow.)"""
    tail = [ln for ln in log_lines if ln.message.strip() and not ln.is_frame][-6:]
    if not tail or tail[-1].level is None or not _WAIT.search(tail[-1].message):
        return None
    shape = re.sub(r"\d+", "#", tail[-1].message.strip())
    repeats = []
    for line in reversed(tail):
        if re.sub(r"\d+", "#", line.message.strip()) != shape:
            break
        repeats.append(line)
    if len(repeats) < STUCK_WAIT_REPEATS:
        return None
    first, last = _stamp_of(repeats[-1].raw), _stamp_of(repeats[0].raw)
    seconds = _seconds_between(first, last) if first and last else 0
    waited = f" over {seconds} s" if seconds > 0 else ""
    steps = next((list(steps) for pattern, steps in _WAITED_ON if pattern.search(tail[-1].message)),
                 ["Find what the wait is for: the lines of the process it waits on, or py-spy dump --pid"])
    finding = Finding(
        cause=f"The start is stuck in {phase}: the log ends in the same wait, logged {len(repeats)} times{waited} "
              f"with no progress ({tail[-1].message.strip()[:160]}).",
        steps=[*steps, "Rerun with VLLM_LOGGING_LEVEL=DEBUG for the engine's own account of the step it is in"])
    return finding, tail[-1]


def _served_or_dumped(run: _Run, lines: list[Line], outcome: _Outcome) -> dict[str, Any] | None:
    """A start with no error that served (healthy), or whose only sign of a failure is a crash dump of a step (V0's
    saved inputs of a failed execution, V1's dump of a step): a dump after the server served is a failure while
    serving, not a healthy journal."""
    failed = _failed_execution_dumped(run, lines, outcome)
    if failed is not None:
        return failed
    if run.serving is not None:
        outcome.healthy = True
        return _result("none", Finding(
            cause="No error in the log: the server started and served.",
            steps=["If a health or acceptance check failed, read that check's own output (status codes, "
                   "latency, throughput); the engine did not log a failure"]),
            "no_error_serving", "healthy", _evidence(lines, [lines[run.serving]]), None, outcome)
    dump = next((ln for ln in run.lines if _STEP_DUMP_LOGGER.search(ln.raw)), None)
    if dump is None:
        return None
    # Only the crash dump of a failed step is in the lines (its error is above or below what was read): the engine
    # failed while serving.
    return _result("runtime", Finding(
        cause="The engine dumped the inputs of a step that failed while serving (V1's crash dump); the error itself "
              "is not in the lines read.",
        steps=["Read the lines around the dump for the engine core's traceback (raise `lines`); the dump names the "
               "requests of that step, so the failing request can be replayed"]),
        "engine_dead", "engine_died_unexplained", _evidence(lines, [dump]), None, outcome)


def _failed_execution_dumped(run: _Run, lines: list[Line], outcome: _Outcome) -> dict[str, Any] | None:
    dump = next((ln for ln in run.lines if _V0_FAILED_EXECUTION_DUMP.search(ln.message)), None)
    if dump is None:
        return None
    return _result(run.phase_at(dump.index, "startup"), Finding(
        cause="The model's execution raised and V0's model runner saved its inputs before passing the error on; the "
              "error itself is not in the lines read.",
        steps=["Read the lines after the dump for the worker's traceback (raise `lines`); the pickled inputs it names "
               "replay the failing step"]),
        "failed_execution_dumped", "unknown", _evidence(lines, [dump]), None, outcome)


def _no_error(run: _Run, lines: list[Line]) -> dict[str, Any]:
    """A start that logged no error: it served, or it was still starting when the log ends."""
    outcome = _Outcome(risks=_risks(run))
    while_serving = [risk for risk in outcome.risks if run.serving is not None and risk["index"] > run.serving
                     and risk["rule"] in _STALL_RISKS]
    if while_serving:
        # A worker that stopped answering while serving is a risk to the serving engine, not a healthy journal;
        # it becomes a failure only when a failure follows. (Load notices, preemptions, stay healthy.)
        risks = "; ".join(risk["risk"] for risk in while_serving)
        return _result("runtime", Finding(
            cause=f"The server was serving; no failure logged, but warnings while serving (risks, not causes): "
                  f"{risks}", steps=[risk["next_step"] for risk in while_serving]),
            "warnings_while_serving", "risk_only", _evidence(lines, [lines[run.serving],
                                                                     lines[while_serving[0]["index"]]]),
            None, outcome)
    served = _served_or_dumped(run, lines, outcome)
    if served is not None:
        return served
    last = next((ln for ln in reversed(run.lines) if ln.message.strip() and not ln.is_frame), run.lines[-1])
    phase = run.phase_at(last.index, "unknown")
    stuck = _stuck_wait(run.lines, run.phase_at(last.index, "load"))
    if stuck is not None:
        return _result(run.phase_at(last.index, "load"), stuck[0], "stuck_wait", "timeout",
                       _evidence(lines, [stuck[1]]), None, outcome)
    if outcome.risks:
        if phase == "unknown":
            phase = next((_RISK_STEPS[risk["rule"]] for risk in outcome.risks if risk["rule"] in _RISK_STEPS), phase)
        steps = [risk["next_step"] for risk in outcome.risks]
        risks = "; ".join(risk["risk"] for risk in outcome.risks)
        return _result(phase, Finding(
            cause=f"No failure logged, only warnings (risks, not causes): {risks}", steps=steps),
            "warnings_only", "risk_only", _evidence(lines, [lines[outcome.risks[0]["index"]]]), None, outcome)
    done = next((ln for ln in reversed(run.lines) if _OFFLINE_RUN_DONE.search(ln.message)), None)
    if done is not None:
        outcome.healthy = True
        return _result("none", Finding(
            cause="No error in the log: the offline run processed every prompt it was given.",
            steps=["If its output is wrong rather than missing, compare the sampling parameters and the chat "
                   "template with the model's own; the engine did not log a failure"]),
            "offline_run_finished", "healthy", _evidence(lines, [done]), None, outcome)
    if phase == "unknown" and run.process_up:
        phase = "load"  # only lines of vLLM's engine or worker processes, none naming a step: they were up
    return _still_starting(run, lines, last, phase, outcome)


def _still_starting(run: _Run, lines: list[Line], last: Line, phase: str, outcome: _Outcome) -> dict[str, Any]:
    """A start with no error that had not served when the log ends: stopped, still starting, or (argparse's usage text
    alone) rejecting its command line on a line cut off here."""
    if (any(_ARGPARSE_USAGE.search(line.message) for line in run.lines)
            and not any(_ARGPARSE_HELP.search(line.message) for line in run.lines)):
        # argparse prints its usage alone only just before the error line that rejects a flag; a --help page goes on
        # with its sections
        return _result("load", Finding(
            cause="vLLM printed its usage text without its help sections, as argparse does just before the error line "
                  "that rejects the command line (a flag this release does not know, or a bad value); that line is "
                  "cut off here.",
            steps=["Run the same command and read the line after the usage text; check the flags against "
                   "`vllm serve --help` of the installed release (flags change between releases)"]),
            "cli_usage_printed", "config_invalid", _evidence(lines, [last]), None, outcome)
    return _result(phase, Finding(
        cause=f"No error logged: the server was still in {phase} when the log ends (it was stopped, or it "
              "is still starting).",
        steps=["If the deploy's health wait ran out, the start is slow: raise the health timeout, "
               "VLLM_ENGINE_READY_TIMEOUT_S and TimeoutStartSec, and read the journal again later",
               "If the unit was stopped from outside (SIGTERM), nothing failed here"]),
        "no_error_not_serving", "no_failure_yet", _evidence(lines, [last]), None, outcome)


# A client's own log (a dispatcher, a gateway, a benchmark) that shows the server answering 200 and holds no line of
# vLLM's: its errors are the client's (it could not use an answer the server gave), not the server's.
_CLIENT_GOT_OK = re.compile(r"\(b'HTTP/1\.[01]', 200, b'OK'|\"HTTP/1\.[01] 200 OK\"")
# a client's logging record at ERROR in the formats Python's logging is commonly given ("...,570:ERROR:root: ...",
# "... - ERROR - ...", "... | ERROR | ...")
_CLIENT_ERROR_RECORD = re.compile(r"[:|-] ?(?:ERROR|CRITICAL) ?[:|-]")
_VLLM_OWN_LINE = re.compile(r"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d|/vllm/"
                            r"|\bvllm\.(?:engine|entrypoints|v1|worker|executor|model_executor)\b"
                            r"|\((?:APIServer|EngineCore|VllmWorker)")


# lm-evaluation-harness's results table ("|Tasks|Version|Filter|n-shot|Metric|...|Value|...") and the score below
# which every answer is wrong (a broken output, not a weak model). A paste can lose the header's first "|".
# (lm-evaluation-harness heads its first column "Tasks", lighteval "Task")
_EVAL_TABLE_HEADER = re.compile(r"^\|?\s*Tasks?\s*\|\s*Version\s*\|")
# pytest's verbose result lines ("tests/x.py::test_y[param] PASSED [ 25%]"), and any outcome or summary that is not
# a pass ("FAILED", "ERROR", "= 1 failed, 7 passed =")
_TEST_PASSED = re.compile(r"^\S+\.py::\S.* PASSED(?:\s+\[\s*\d+%\])?\s*$")
_TEST_NOT_PASSED = re.compile(r"\s(?:FAILED|ERROR)(?:\s|$)|^(?:FAILED|ERROR) \S+\.py::|\b\d+ (?:failed|errors?)\b")
# the run line lm-evaluation-harness prints above its table once every request is answered
# ("vllm (pretrained=...), gen_kwargs: (None), limit: None, num_fewshot: 5, batch_size: auto")
_EVAL_RUN_LINE = re.compile(r"^[\w-]+ \(.*\), gen_kwargs: \(.*\), limit: .*, num_fewshot: ")
_SCORE_NEAR_ZERO = 0.05
# A benchmark's own results (a load generator's table, a comparison script's summary): latency and throughput
# figures were measured, so the server answered the requests they timed.
_BENCHMARK_FIGURE = re.compile(r"(?i)\b(?:latency|throughput|tps|tok(?:en)?s?/s(?:ec(?:ond)?)?|req(?:uest)?s/s"
                               r"|ttft|tpot|itl|e2el|mfu|generation time|kernel time|qps|per second"
                               # speculative decoding's summary of a finished run (the spec_decode example's)
                               r"|acceptance (?:length|rate)|num_(?:accepted|draft)_tokens|num_drafts)\b")
_FIGURE_VALUE = re.compile(r"[:=]\s*[\d.]+\b")
_TABLE_ROW_NUMBER = re.compile(r"\|\s*[\d.]+\s*(?=\|)")
# The model's output as a caller prints it: vLLM's offline result objects, its example script's "Generated text:", or
# an OpenAI-style answer (choices, the assistant's message, token usage). Its presence means a request was served.
_MODEL_OUTPUT = re.compile(r"\b(?:CompletionOutput|RequestOutput|ChatCompletion(?:Message)?)\(|Generated text: "
                           # (the answer of vLLM's demo API server, /generate)
                           r"|^\{\"text\": \[\""
                           r"|[\"']choices[\"']: *\[|[\"']role[\"']: *[\"']assistant[\"']"
                           r"|[\"']completion_tokens[\"']: *\d|[\"']finish_reason[\"']: *[\"']")


# A device's fault is nobody's own code: CUDA reports a kernel's failure at a later call, in whatever code makes it.
_DEVICE_FAULT = re.compile(r"CUDA|NCCL|HIP error|OutOfMemory|out of memory|device-side|illegal memory"
                           r"|Segmentation fault|core dumped")


def _caller_failed_after_an_offline_run(lines: list[Line]) -> dict[str, Any] | None:
    """An offline run (LLM.generate) that processed every prompt, then a traceback with no frame or line of vLLM's:
    the caller's own code failed on the outputs (an evaluator's metric, a trainer's step), not vLLM."""
    done = next((line for line in reversed(lines) if _OFFLINE_RUN_DONE.search(line.message)), None)
    if done is None:
        return None
    after = lines[done.index + 1:]
    failed = next((line for line in after if _TRACEBACK.match(line.message) or _EXCEPTION.match(line.message)), None)
    if failed is None or any(_VLLM_OWN_LINE.search(line.raw) or _DEVICE_FAULT.search(line.message) for line in after):
        return None
    return _result("none", Finding(
        cause="The offline run processed every prompt it was given; the error after it is the calling program's own "
              "(no frame of vLLM's in its traceback).",
        steps=["Read the caller's traceback (its last frames and exception): the evaluator's or trainer's code, or "
               "its configuration, failed on vLLM's outputs"]),
        "caller_failed_after_offline_run", "healthy", _evidence(lines, [done, failed]), None, _Outcome(healthy=True))


def _client_failed_on_an_answer(lines: list[Line]) -> dict[str, Any] | None:
    if any(_VLLM_OWN_LINE.search(line.raw) for line in lines):
        return None
    answered = next((line for line in lines if _CLIENT_GOT_OK.search(line.raw)), None)
    failed = next((line for line in lines if line.level in ("ERROR", "CRITICAL") or _EXCEPTION.match(line.message)
                   or _CLIENT_ERROR_RECORD.search(line.raw)), None)
    if answered is None or failed is None:
        return None
    return _result("none", Finding(
        cause="The server answered 200; the error is the client's own: it failed on an answer it was given "
              f"({failed.message.strip()[:160]}).",
        steps=["Fix the client: request the same route yourself (curl) and compare the answer with what the client "
               "expects (a metric or field that this vLLM version renamed or dropped)",
               "vLLM itself logged no failure here; read its own journal to be sure"]),
        "client_failed_on_an_answer", "healthy", _evidence(lines, [failed, answered]), None, _Outcome(healthy=True))


def diagnose(log_text: str, *, context: Mapping[str, Any] | None = None,
             exclude_windows: Any = None) -> dict[str, Any]:
    """Classify a vLLM log (a journal or a log file) into phase, cause, evidence and next step.

    ``exclude_windows``: the acceptance suite's probe windows (``[{"start": iso, "end": iso}]``, as in
    release.json); client errors logged inside them are not counted.
    """
    if not isinstance(log_text, str):
        raise KimiDeployError(f"log_text must be text (the journal or log file), got {type(log_text).__name__}")
    lines = _parse(log_text)
    return _phase_from_the_caller(_diagnose_lines(lines, _normalise_context(context),
                                                  _normalise_windows(exclude_windows)), lines)


# A client library's frames (the OpenAI SDK, httpx, aiohttp, requests) in a traceback: the caller was sending a request
# to a server it took to be listening, so a failure no step of vLLM's places is the request's.
_CLIENT_REQUEST_FRAME = re.compile(r"openai/_base_client\.py|/(?:httpx|httpcore|aiohttp|requests)/\w+\.py\"")


def _phase_from_the_caller(result: dict[str, Any], lines: list[Line]) -> dict[str, Any]:
    if result["phase"] != "unknown" or not any(_CLIENT_REQUEST_FRAME.search(line.raw) for line in lines):
        return result
    return {**result, "phase": "runtime"}


def _diagnose_lines(lines: list[Line], known: dict[str, Any], windows: list[tuple[Stamp, Stamp]]) -> dict[str, Any]:
    client = _client_failed_on_an_answer(lines) or _caller_failed_after_an_offline_run(lines)
    if client is not None:
        return client
    runs = _split_runs(lines)
    # The latest start decides: its failure, or its clean serving. A start still in progress with no
    # error yet (a systemd restart) defers to the failure of the start before it.
    for run in reversed(runs):
        result = _diagnose_run(run, lines, {**_params_from_log(run.lines), **known}, windows)
        if result is not None:
            return result
        if run.serving is not None:
            return _no_error(run, lines)
    active = [run for run in runs if run.activity or run.stages or _risks(run)]
    if active and not _environment_report_only(active[-1], lines):
        return _no_error(active[-1], lines)
    return _no_run(lines)


# What importing vllm prints before any command runs (the platform it detected, its plugins): collect_env imports vllm
# to report its version, so these lines head an environment report that holds no start of the server.
_IMPORT_TIME = re.compile(
    r"Automatically detected platform|Platform plugin \w+ is activated|Available plugins for group vllm\."
    r"|No platform detected, vLLM is running|No plugins for group vllm\.platform_plugins found"
    r"|Checking if \w+ platform is available"
)
# collect_env's report (its first line, its sections' fields), in each release's layout ("PyTorch version: 2.1" or
# "PyTorch version              : 2.9")
_ENVIRONMENT_REPORT = re.compile(r"^Collecting environment information|^(?:PyTorch version|Is debug build"
                                 r"|CUDA used to build PyTorch|vLLM Version) *:")


def _environment_report(lines: list[Line]) -> Line | None:
    """The first line of collect_env's report, if the text holds one."""
    return next((line for line in lines if _ENVIRONMENT_REPORT.search(line.message.strip())), None)


def _environment_report_only(run: _Run, lines: list[Line]) -> bool:
    """An environment report whose only lines of vLLM's are those importing it prints: no start of the server."""
    milestones = [line for line in run.lines if not line.is_frame
                  and any(pattern.search(line.message) for _stage, pattern in _MILESTONES)]
    return (run.serving is None and run.load_done is None and not run.process_up and not _risks(run)
            and all(_IMPORT_TIME.search(line.message) for line in milestones)
            and _environment_report(lines) is not None)


def _evaluation_scores(lines: list[Line]) -> tuple[Line, list[float]] | None:
    """lm-evaluation-harness's results table (its header and the Value column of each row), if the text holds one."""
    header = next((line for line in lines if _EVAL_TABLE_HEADER.match(line.message.strip())), None)
    if header is None:
        return None
    columns = [cell.strip() for cell in header.message.strip().strip("|").split("|")]
    if "Value" not in columns:
        return None
    scores = []
    for line in lines[header.index + 1:]:
        row = line.message.strip()
        if not row.startswith("|"):
            break
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        with contextlib.suppress(IndexError, ValueError):
            scores.append(float(cells[columns.index("Value")]))
    if scores:
        return header, scores
    # the rows cut off below the header: the run line above it says the evaluation finished
    return (header, []) if any(_EVAL_RUN_LINE.match(line.message) for line in lines[:header.index]) else None


def _test_run_passed(lines: list[Line]) -> Line | None:
    """The first of pytest's result lines, when every test the text shows passed and nothing else failed."""
    if any(_TEST_NOT_PASSED.search(line.message) or _TRACEBACK.match(line.message) or _EXCEPTION.match(line.message)
           for line in lines):
        return None
    return next((line for line in lines if _TEST_PASSED.match(line.message.strip())), None)


def _benchmark_figures(lines: list[Line]) -> Line | None:
    """The first line of a benchmark's results (two "name: value" figures, or a table whose header names two
    figures and whose rows hold numbers), when the text holds no error."""
    if any(line.level in ("ERROR", "CRITICAL") or _TRACEBACK.match(line.message) or _EXCEPTION.match(line.message)
           for line in lines):
        return None
    figures = [line for line in lines if _BENCHMARK_FIGURE.search(line.message) and _FIGURE_VALUE.search(line.message)]
    if len(figures) >= 2:
        return figures[0]
    for line in lines:
        text = line.message.strip()
        if text.startswith("|") and len(_BENCHMARK_FIGURE.findall(text)) >= 2 and any(
                _TABLE_ROW_NUMBER.search(row.message) for row in lines[line.index + 1:]):
            return line
    return None


def _tool_report(lines: list[Line]) -> dict[str, Any] | None:
    """A tool's report of requests the server answered (a test run that passed, a benchmark's figures), if the text
    is one."""
    passed = _test_run_passed(lines)
    if passed is not None:
        return _result("none", Finding(
            cause="No error in the lines: they are a test run's results (pytest), and every test shown passed.",
            steps=["vLLM logged no failure here; if the thread reports one, ask for the server's own log"]),
            "test_run_passed", "healthy", _evidence(lines, [passed]), None, _Outcome(healthy=True))
    figures = _benchmark_figures(lines)
    if figures is not None:
        return _result("none", Finding(
            cause="No error in the lines: they are a benchmark's results (latency, throughput or draft acceptance "
                  "figures), measured on requests the server answered.",
            steps=["Judge the figures against a baseline measured on the same GPUs with the same request shapes (the "
                   "ledger's rows); if they fall short, change one launch parameter at a time (tune.yml)"]),
            "benchmark_results", "healthy", _evidence(lines, [figures]), None, _Outcome(healthy=True))
    return None


def _no_run(lines: list[Line]) -> dict[str, Any]:
    """A text with no start of vLLM's in it: a wait that never ends, an evaluation's results, the model's output, or
    nothing a rule reads."""
    stuck = _stuck_wait(lines, "load")
    if stuck is not None:
        return _result("load", stuck[0], "stuck_wait", "timeout", _evidence(lines, [stuck[1]]), None)
    evaluation = _evaluation_scores(lines)
    if evaluation is not None:
        header, scores = evaluation
        if scores and max(scores) < _SCORE_NEAR_ZERO:
            return _result("runtime", Finding(
                cause=f"An evaluation ran through the server (lm-evaluation-harness's table) and every score is near "
                      f"zero (at most {max(scores):g}): the requests were served, but the answers are broken.",
                steps=["Look at a few answers (lm_eval --log_samples): empty, repeated or garbled text points at the "
                       "checkpoint, its quantization or kernels on this GPU, or the chat template",
                       "Run the same evaluation with the unquantized checkpoint or --enforce-eager to tell the two "
                       "apart"]),
                "evaluation_scores_near_zero", "unknown", _evidence(lines, [header]), None)
        shown = f"scores up to {max(scores):g}" if scores else "its scores cut off below the header"
        return _result("none", Finding(
            cause=f"An evaluation ran through the server and finished (lm-evaluation-harness's table, {shown}): the "
                  "server answered every request.",
            steps=["Compare the scores with the model card's or a reference run's; vLLM logged no failure"]),
            "evaluation_finished", "healthy", _evidence(lines, [header]), None, _Outcome(healthy=True))
    report = _tool_report(lines)
    if report is not None:
        return report
    output = next((line for line in lines if _MODEL_OUTPUT.search(line.raw)), None)
    if output is not None:
        return _result("runtime", Finding(
            cause="No error in the lines: they are the model's output as its caller printed it (a request that was "
                  "served), so the engine was answering; what is wrong with the output is not in a log.",
            steps=["Send the same prompt with temperature 0 to this server and to transformers (or the model's "
                   "reference) and compare; then check the chat template, the generation config "
                   "(`--generation-config vllm` to drop the model's defaults), the stop tokens and max_tokens",
                   "If the output is garbled only here, check the dtype and the quantization tier against the "
                   "model card, and whether the checkpoint's weights match its config"]),
            "model_output_only", "unknown", _evidence(lines, [output]), None)
    return _nothing_a_rule_reads(lines)


def _nothing_a_rule_reads(lines: list[Line]) -> dict[str, Any]:
    """An environment report, or a text with no line a rule reads."""
    report = _environment_report(lines)
    if report is not None:
        return _result("unknown", Finding(
            cause="The text is an environment report (collect_env's, with the lines importing vLLM prints, if any): "
                  "it holds no start of the server and no error, so no step of vLLM's to place a failure in.",
            steps=["Keep the report for the versions it names, and read the failure from the server's own log: the "
                   "service's journal from its start to its first error line (`lines`, `since`), or the log file "
                   "the server wrote"]),
            "environment_report_only", "unknown", _evidence(lines, [report]), None)
    if any(_VLLM_OWN_LINE.search(line.raw) for line in lines):
        # vLLM's records, but only of data (a dump's rows, a request's tokens) or of nothing the rules read
        cause = ("The text holds lines of vLLM's log but none that names a step of the start or an error a rule "
                 "knows (only data, such as a dump's rows).")
    else:
        cause = "The text holds no vLLM log lines and no recognisable error."
    return _result("unknown", Finding(
        cause=cause,
        steps=["Read the first error line of the service's journal yourself; check the unit name and read "
               "more lines (`lines`, `since`), or pass the log file the server wrote"]),
        "no_vllm_log", "unknown", [], None)


def last_failure(log_text: str, *, context: Mapping[str, Any] | None = None,
                 exclude_windows: Any = None) -> dict[str, Any] | None:
    """The diagnosis of the latest start that failed, looking past later starts that serve or are still
    starting (a unit that restarted after a crash and serves again); None when no start failed.
    """
    if not isinstance(log_text, str):
        raise KimiDeployError(f"log_text must be text (the journal or log file), got {type(log_text).__name__}")
    known = _normalise_context(context)
    windows = _normalise_windows(exclude_windows)
    lines = _parse(log_text)
    for run in reversed(_split_runs(lines)):
        result = _diagnose_run(run, lines, {**_params_from_log(run.lines), **known}, windows)
        if result is not None and not result["healthy"]:
            return result
    return None


# Phases that name no failure: a diagnosis in one of them adds nothing to a deploy's failure message.
_SILENT_PHASES = ("", "unknown", "none")


def deploy_failure_message(*, release_id: str, host: str, failed_task: str, error: Any,
                           diagnosis: Mapping[str, Any] | None, restored: Mapping[str, Any] | None,
                           root: str) -> str:
    """What a failed deploy says: where it failed, the diagnosis of the journal when it names a
    phase, and what serves now (``restored``: kimi_release's restore result, None when the deploy
    failed before it moved current)."""
    parts = [f'Release {release_id} failed on {host} at "{failed_task}": {error if error is not None else ""}.']
    diagnosis = diagnosis or {}
    if str(diagnosis.get("phase") or "") not in _SILENT_PHASES:
        parts.append(f"Diagnosis: {diagnosis['phase']} phase, {diagnosis.get('cause', '')} "
                     f"Next step: {diagnosis.get('next_step', '')}")
    if restored is None:
        parts.append("current was not moved; nothing serving changed.")
    elif restored.get("serving"):
        parts.append(f"Release {restored['serving']} is serving again.")
    elif restored.get("passed_over"):
        parts.append(f"No accepted release fits this replica (laid out for another number of nodes: "
                     f"{', '.join(restored['passed_over'])}); the service is stopped. Deploy a release planned "
                     "for this replica, or put the hosts back in the replica group those were planned for and "
                     "run rollback.yml.")
    else:
        parts.append("No release was ever accepted; the service is stopped.")
    parts.append(f"The failed release stays in {root}/releases/{release_id} for inspection.")
    return " ".join(parts)
