"""Filters of the front door, the fleet load balancer and the IP allow-lists (no Ansible import).

kimi_frontdoor_key_map turns the API keys (from Vault) into HAProxy map lines that hold only each
key's SHA-256, so neither the map file nor a log can leak a key; kimi_lb_servers derives each
replica's maxconn from its plan; kimi_ip_allow_list resolves the nodes a unit may talk to;
kimi_without_frontdoor names the replica heads a balancer or Prometheus would find without an entry.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import ipaddress
import re

DOCUMENTATION = r"""
---
name: kimi_frontdoor_key_map
short_description: HAProxy map lines (sha256 of key, then a value) for the front door's API keys
description:
  - Input is a list of C({name, key, not_after}); C(not_after) is an ISO date or date-time (UTC when
    no zone is given) after which the key is refused, or empty for a key that does not expire.
  - C(field=not_after) gives C(<sha256-hex> <epoch>) lines, C(field=name) gives C(<sha256-hex> <name>).
options:
  _input:
    description: The API keys.
    type: list
    elements: dict
    required: true
  field:
    description: not_after or name.
    type: str
    default: not_after
"""

NEVER_EPOCH = 253402300799  # 9999-12-31T23:59:59Z: "does not expire", still comparable with HAProxy's date
MIN_KEY_LENGTH = 24
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_SERVER_NAME = re.compile(r"^[A-Za-z0-9_.:-]+$")


def not_after_epoch(value: object) -> int:
    """Seconds since the epoch of an ISO date/date-time (UTC when naive); empty: never."""
    if value in (None, ""):
        return NEVER_EPOCH
    if isinstance(value, _dt.datetime):
        moment = value
    elif isinstance(value, _dt.date):
        moment = _dt.datetime.combine(value, _dt.time(23, 59, 59))
    else:
        text = str(value).strip().replace("Z", "+00:00")
        try:
            moment = _dt.datetime.fromisoformat(text)
        except ValueError as err:
            raise ValueError(f"not_after {value!r} is not an ISO date or date-time") from err
        if len(text) == 10:  # a bare date: the key works through that whole day (UTC)
            moment = moment.replace(hour=23, minute=59, second=59)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=_dt.timezone.utc)
    return int(moment.timestamp())


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def kimi_frontdoor_key_map(keys: list[dict], field: str = "not_after") -> str:
    if field not in ("not_after", "name"):
        raise ValueError(f"field must be not_after or name, not {field!r}")
    names: set[str] = set()
    digests: set[str] = set()
    lines = []
    for entry in keys or []:
        name, key = str(entry.get("name", "")), str(entry.get("key", ""))
        if not _NAME.match(name):
            raise ValueError(f"API key name {name!r}: letters, digits, '.', '_', '-' (it is logged)")
        if name in names:
            raise ValueError(f"API key name {name!r} is used twice; give each client team's key its own name")
        if len(key) < MIN_KEY_LENGTH or any(c.isspace() for c in key):
            raise ValueError(f"API key {name!r}: at least {MIN_KEY_LENGTH} characters, no white space "
                             "(e.g. openssl rand -hex 32)")
        digest = key_digest(key)
        if digest in digests:
            raise ValueError(f"API key {name!r} is the same key as another entry")
        names.add(name)
        digests.add(digest)
        value = name if field == "name" else str(not_after_epoch(entry.get("not_after")))
        lines.append(f"{digest} {value}")
    return "\n".join(lines) + ("\n" if lines else "")


def kimi_lb_servers(heads: list[str], hostvars: dict, port: int, maxconn_per_seq: float = 1.0,
                    default_max_num_seqs: int = 0) -> list[dict]:
    """One server per replica head: name, address, port and maxconn = the plan's max_num_seqs * factor.

    max_num_seqs is read from the head's kimi_plan_result (set by kimi_plan in this run), else the
    plan of the release that serves there (kimi_release_serving, read by fleet.yml), else
    kimi_lb_max_num_seqs in its hostvars, else ``default_max_num_seqs``; a replica with none of
    these is refused, because an unbounded server would queue in vLLM instead of in the balancer.
    """
    servers = []
    for head in heads:
        if not _SERVER_NAME.match(head):
            raise ValueError(f"{head}: HAProxy server names take letters, digits, '.', '_', '-' and ':' only")
        hv = hostvars.get(head, {})
        seqs = ((hv.get("kimi_plan_result") or {}).get("max_num_seqs")
                or ((hv.get("kimi_release_serving") or {}).get("plan") or {}).get("max_num_seqs")
                or hv.get("kimi_lb_max_num_seqs") or default_max_num_seqs)
        if not seqs or int(seqs) < 1:
            raise ValueError(f"{head}: no max_num_seqs (run the plan, or set kimi_lb_max_num_seqs for it)")
        servers.append({
            "name": head,
            "address": hv.get("ansible_host", head),
            "port": int(port),
            "maxconn": max(1, int(int(seqs) * float(maxconn_per_seq))),
        })
    return servers


def kimi_replica_heads(hosts: list[str], hostvars: dict, groups: dict) -> list[str]:
    """The head (first host of its kimi_replica_group, else itself) of every replica among ``hosts``."""
    heads: list[str] = []
    for host in hosts:
        group = hostvars.get(host, {}).get("kimi_replica_group") or ""
        head = groups[group][0] if group else host
        if head not in heads:
            heads.append(head)
    return heads


def kimi_without_frontdoor(heads: list[str], hostvars: dict) -> list[str]:
    """The replica heads whose inventory does not turn the front door on (kimi_frontdoor_enabled).

    A balancer or Prometheus that speaks TLS to the heads' entries would meet plain HTTP (vLLM) there.
    """
    return [head for head in heads if not _truthy(hostvars.get(head, {}).get("kimi_frontdoor_enabled", False))]


def kimi_loopback_exporters(hosts: list[str], hostvars: dict, setting: str) -> list[str]:
    """The hosts whose HAProxy exporter (``setting``: kimi_frontdoor_stats_bind_address or
    kimi_lb_stats_bind_address, default 127.0.0.1) listens on loopback only. Prometheus scrapes each at
    its address (ansible_host), its own host's too, and would find them down. Each as "host (address)"."""
    found = []
    for host in hosts:
        address = str(hostvars.get(host, {}).get(setting, "127.0.0.1"))
        if address.startswith("127.") or address in ("::1", "localhost"):
            found.append(f"{host} ({address})")
    return found


def _truthy(value: object) -> bool:
    """Ansible's bool of an inventory value ("yes", "true", "1", true)."""
    if isinstance(value, str):
        return value.strip().lower() in ("yes", "on", "true", "1", "y", "t")
    return bool(value)


def kimi_ip_allow_list(hosts: list[str], hostvars: dict, extra: list[str] | tuple = (),
                       address_var: str = "kimi_node_address") -> list[str]:
    """The IP addresses of ``hosts`` (``address_var`` else ansible_host), then ``extra`` (addresses or
    networks in CIDR form), each checked, without repeats.

    systemd's IPAddressAllow= takes addresses and networks, not names: a name would allow nothing.
    """
    entries = []
    for host in hosts:
        hv = hostvars.get(host, {})
        value = hv.get(address_var) or hv.get("ansible_host") or host
        try:
            entries.append(str(ipaddress.ip_address(value)))
        except ValueError as err:
            raise ValueError(f"{host}: {value!r} is not an IP address; set {address_var} for it "
                             "(systemd's IPAddressAllow= takes addresses)") from err
    for value in extra or ():
        try:
            network = ipaddress.ip_network(str(value), strict=False)
        except ValueError as err:
            raise ValueError(f"{value!r} (kimi_multinode_head_address or kimi_multinode_ip_allow_extra) is "
                             "neither an IP address nor a network in CIDR form (systemd's IPAddressAllow= takes "
                             "no names)") from err
        entries.append(str(network.network_address) if network.num_addresses == 1 else str(network))
    return sorted(set(entries), key=entries.index)


class FilterModule:
    def filters(self):
        return {"kimi_frontdoor_key_map": kimi_frontdoor_key_map, "kimi_lb_servers": kimi_lb_servers,
                "kimi_ip_allow_list": kimi_ip_allow_list, "kimi_replica_heads": kimi_replica_heads,
                "kimi_without_frontdoor": kimi_without_frontdoor, "kimi_loopback_exporters": kimi_loopback_exporters}
