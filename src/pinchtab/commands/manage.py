"""Commands that manage the server's instances and profiles (``instances``, ``profiles`` groups)."""

from __future__ import annotations

import click

from pinchtab.commands.table import MANAGE, Ctx, command, group

group("instances", MANAGE, """List the server's browser instances (or start/stop one).

    \b
    Example:
      pinchtab instances
      pinchtab instances start --profile prof_1a2b3c4d
      pinchtab instances stop inst_5e6f7a8b
    """, lists=True)


@command("instances list", MANAGE, tab=False, starts=False)
def list_instances(ctx: Ctx) -> None:
    """List instances.

    \b
    Example:
      pinchtab instances list --json
    """
    ctx.out(ctx.client.instances(), lambda v: "\n".join(
        f"{i['id']}  {i.get('status', '')}  port {i.get('port', '')}  {i.get('profileName') or i.get('profileId') or '(temporary)'}"
        for i in v) or "no instances")


@command("instances start", MANAGE, tab=False, starts=False)
@click.option("--profile", "profile_id", help="Profile id (a temporary profile when omitted).")
@click.option("--headed", is_flag=True, help="Show the browser window (needs a display).")
def start_instance(ctx: Ctx, profile_id: str | None, headed: bool) -> None:
    """Start an instance (its own Chromium; a temporary profile without --profile).

    \b
    Example:
      pinchtab instances start --profile work
    """
    ctx.out(ctx.client.start_instance(profile_id, "headed" if headed else "headless"), lambda v: f"{v['id']} {v.get('status', '')}")


@command("instances stop", MANAGE, tab=False, starts=False)
@click.argument("instance_id")
def stop_instance(ctx: Ctx, instance_id: str) -> None:
    """Stop instance INSTANCE_ID.

    \b
    Example:
      pinchtab instances stop inst_5e6f7a8b
    """
    ctx.out(ctx.client.stop_instance(instance_id), lambda v: f"stopped {instance_id}")


group("profiles", MANAGE, """List the server's profiles (or create/delete one).

    \b
    Example:
      pinchtab profiles
      pinchtab profiles create work --description "work account"
      pinchtab profiles delete prof_1a2b3c4d
    """, lists=True)


@command("profiles list", MANAGE, tab=False, starts=False)
def list_profiles(ctx: Ctx) -> None:
    """List profiles.

    \b
    Example:
      pinchtab profiles list
    """
    ctx.out(ctx.client.profiles(), lambda v: "\n".join(
        f"{p['id']}  {p['name']}  {p.get('description') or ''}".rstrip() for p in v) or "no profiles")


@command("profiles create", MANAGE, tab=False, starts=False)
@click.argument("name")
@click.option("--description", help="What the profile is for.")
def create_profile(ctx: Ctx, name: str, description: str | None) -> None:
    """Create profile NAME (a persistent Chrome user-data dir).

    \b
    Example:
      pinchtab profiles create work --description "work account"
    """
    ctx.out(ctx.client.create_profile(name, description), lambda v: f"{v['id']}  {v['name']}")


@command("profiles delete", MANAGE, tab=False, starts=False)
@click.argument("profile_id")
def delete_profile(ctx: Ctx, profile_id: str) -> None:
    """Delete profile PROFILE_ID.

    \b
    Example:
      pinchtab profiles delete prof_1a2b3c4d
    """
    ctx.out(ctx.client.delete_profile(profile_id), lambda v: f"deleted {profile_id}")


group("agents", MANAGE, """List the agents the server has seen (X-Agent-Id), or show one with its recent events.

    \b
    Example:
      pinchtab agents
      pinchtab agents show bosch
      pinchtab activity --agent-id bosch --limit 20
    """, lists=True)


group("sessions", MANAGE, """Agent sessions: a revocable token per agent (Authorization: Session <token>, PINCHTAB_SESSION).

    \b
    Example:
      pinchtab sessions create bosch --label "research task"
      pinchtab sessions
      pinchtab sessions revoke ses_e6ac8132fe7e7016
    """, lists=True)
