#!/usr/bin/env bash
# The Action's pull-request comment: one comment per pull request, found by the report's
# marker <!-- bucketlint --> AND its author (the token's user, github-actions[bot] for the
# workflow token), updated on every push. A first run with nothing failing posts nothing.
# Pull requests from forks get a read-only token: the step says so and skips.
# Environment: GH_TOKEN, EVENT_NAME, REPO, PR, HEAD_REPO, BODY (the Markdown report),
# EXIT_CODE (bucketlint's), AUTHOR (default github-actions[bot]).
set -euo pipefail
marker='<!-- bucketlint -->'
author="${AUTHOR:-github-actions[bot]}"

case "${EVENT_NAME:-}" in
  pull_request | pull_request_target) ;;
  *) echo "bucketlint: not a pull request (${EVENT_NAME:-no event}): no comment"; exit 0 ;;
esac
if [ "${HEAD_REPO:-}" != "$REPO" ]; then
  echo "::notice::bucketlint: pull request from the fork ${HEAD_REPO:-unknown}: its token cannot comment; the report is in the job summary"
  exit 0
fi
if [ ! -s "${BODY:-}" ]; then
  echo "bucketlint: no report to post"
  exit 0
fi
if ! [[ "$author" =~ ^[A-Za-z0-9][A-Za-z0-9-]*(\[bot\])?$ ]]; then
  echo "::error::bucketlint: comment-author $author is not a GitHub login"
  exit 2
fi
if [ "$(head -c ${#marker} "$BODY")" != "$marker" ]; then
  echo "::error::bucketlint: the report does not start with $marker"
  exit 2
fi

# All comments are read (no pipe into head: under pipefail a reader that stops early would
# kill the writer with SIGPIPE); the first that matches is ours.
ids=$(gh api --paginate "repos/$REPO/issues/$PR/comments" \
  --jq ".[] | select(.user.login == \"$author\" and (.body | startswith(\"$marker\"))) | .id")
id="${ids%%$'\n'*}"
if [ -n "$id" ]; then
  gh api --method PATCH "repos/$REPO/issues/comments/$id" -F "body=@$BODY" > /dev/null
  echo "bucketlint: updated comment $id on pull request $PR"
elif [ "${EXIT_CODE:-0}" != 0 ]; then
  gh api --method POST "repos/$REPO/issues/$PR/comments" -F "body=@$BODY" > /dev/null
  echo "bucketlint: commented on pull request $PR"
else
  echo "bucketlint: nothing failed and no earlier comment: not commenting"
fi
