/* The check_warnings suite (check_warnings.h says what it tests), and its main(). */
#include "check_warnings.h"

/*==============================================================================================
 * docs/design.md §2.2: final-user-not-root
 *============================================================================================*/

START_TEST(test_final_user_fires) {
  CMDS(SP("RUN useradd -m app"), SP("USER app"), SP("RUN id"));
  const boxlint_diag *d = EXPECT("final-user-not-root", W, 1, 1, 6, 1, 9, "USER app");
  HINT(d, "USER root");
  TOTAL(1);
  ck_assert_uint_eq(d->offset, 5);
  ck_assert_uint_eq(d->end_offset, 8);

  /* The last USER counts, with a group. */
  CMDS(SP("USER root:root"), SP("USER app:app"));
  EXPECT("final-user-not-root", W, 1, 1, 6, 1, 13, "app:app");
  TOTAL(1);

  /* A user id that is not 0, and root with a non-root... user first: 1000:0. */
  CMDS(SP("USER 1000:0"));
  EXPECT("final-user-not-root", W, 0, 1, 6, 1, 12, "1000:0");

  /* Lower-case keyword; continuation puts the user on line 2. */
  CMDS(SP("user app"));
  EXPECT("final-user-not-root", W, 0, 1, 6, 1, 9, "app");
  CMDS(SP("USER \\\n  app"));
  EXPECT("final-user-not-root", W, 0, 2, 3, 2, 6, "app");
  TOTAL(1);
}
END_TEST

START_TEST(test_final_user_not_fired) {
  /* Back to root by name or by id, with or without group. */
  CMDS(SP("USER app"), SP("RUN id"), SP("USER root"));
  TOTAL(0);
  CMDS(SP("USER app"), SP("USER 0:0"));
  TOTAL(0);
  CMDS(SP("USER app"), SP("USER 0"));
  TOTAL(0);
  CMDS(SP("USER app"), SP("USER root:root"));
  TOTAL(0);
  CMDS(SP("USER app"), SP("USER root   "));
  TOTAL(0);
  /* A variable: boxlint cannot know the user, so it does not guess. */
  CMDS(SP("USER app"), SP("USER $U"));
  TOTAL(0);
  CMDS(SP("USER ${APP_USER}"));
  TOTAL(0);
  /* No USER at all, and USER only as text. */
  CMDS(SP("RUN useradd -m app && echo USER app"), SP("LABEL user=app"));
  TOTAL(0);
}
END_TEST

START_TEST(test_final_user_fragment) {
  FRAG("RUN true\nUSER app\nRUN echo hi\n");
  EXPECT("final-user-not-root", W, 1, 2, 6, 2, 9, "USER app");
  TOTAL(1);
  /* A FROM (a fragment that is a whole Dockerfile) starts a new stage: the earlier USER no longer
   * decides the final user. FROM itself stays a denied-instruction error. */
  FRAG("USER app\nFROM ubuntu:24.04\nRUN true\n");
  NONE("final-user-not-root");
  EXPECT("denied-instruction", E, 1, 2, 1, 2, 5, "FROM");
  /* ... but a USER after the FROM counts. */
  FRAG("USER root\nFROM ubuntu:24.04\nUSER app\n");
  EXPECT("final-user-not-root", W, 2, 3, 6, 3, 9, "app");
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.2: stopsignal-overrides-systemd
 *============================================================================================*/

START_TEST(test_stopsignal) {
  CMD("STOPSIGNAL SIGTERM");
  const boxlint_diag *d = EXPECT("stopsignal-overrides-systemd", W, 0, 1, 1, 1, 19, "SIGTERM");
  ck_assert(contains(d->message, "SIGRTMIN+3"));
  ck_assert_ptr_nonnull(d->hint);
  TOTAL(1);
  CMDS(SP("RUN true"), SP("STOPSIGNAL 9"));
  EXPECT("stopsignal-overrides-systemd", W, 1, 1, 1, 1, 13, "9");
  CMD("stopsignal SIGKILL");
  EXPECT("stopsignal-overrides-systemd", W, 0, 1, 1, 1, 19, "SIGKILL");

  /* What systemd expects already: by name and by number (SIGRTMIN+3 is 37 on Linux). */
  CMD("STOPSIGNAL SIGRTMIN+3");
  TOTAL(0);
  CMD("STOPSIGNAL 37");
  TOTAL(0);
  /* Text in another instruction. */
  CMD("RUN echo STOPSIGNAL SIGTERM");
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.3: apt-get-missing-yes
 *============================================================================================*/

START_TEST(test_apt_missing_yes_fires) {
  CMD("RUN apt-get update && apt-get install curl && rm -rf /var/lib/apt/lists/*");
  const boxlint_diag *d = EXPECT("apt-get-missing-yes", W, 0, 1, 23, 1, 38, "without -y");
  HINT(d, "-y");
  TOTAL(1);

  CMD("RUN apt install curl");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 16, "apt without -y");
  CMD("RUN /usr/bin/apt-get install --no-install-recommends curl");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 29, "without -y");
  CMD("RUN apt-get -q install curl");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 23, "without -y");
  CMD("RUN apt-get remove curl");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 19, "without -y");
  /* Env assignments and wrappers in front. */
  CMD("RUN DEBIAN_FRONTEND=noninteractive apt-get install tzdata");
  EXPECT("apt-get-missing-yes", W, 0, 1, 36, 1, 51, "without -y");
  /* Second command of a continuation; the commented line in between is not read. */
  CMD("RUN apt-get update && \\\n # apt-get install foo\n apt-get install x && rm -rf /var/lib/apt/lists/*");
  EXPECT("apt-get-missing-yes", W, 0, 3, 2, 3, 17, "without -y");
  TOTAL(1);
  /* Several commands: each on its own index. */
  CMDS(SP("RUN true"), SP("RUN apt-get install a"), SP("RUN apt-get install -y b"));
  EXPECT("apt-get-missing-yes", W, 1, 1, 5, 1, 20, "without -y");
  TOTAL(1);
}
END_TEST

START_TEST(test_apt_missing_yes_heredoc_script) {
  /* RUN <<EOF: the body IS the script, so the rule applies there, at body positions. */
  CMD("RUN <<EOF\napt-get install curl\nEOF");
  EXPECT("apt-get-missing-yes", W, 0, 2, 1, 2, 16, "without -y");
  TOTAL(1);
  CMD("RUN bash <<EOF\nset -e\napt-get install curl\nEOF");
  EXPECT("apt-get-missing-yes", W, 0, 3, 1, 3, 16, "without -y");
  CMD("RUN <<EOF\napt-get install -y curl\nEOF");
  TOTAL(0);
}
END_TEST

START_TEST(test_apt_missing_yes_not_fired) {
  static const boxlint_span ok[] = {
      /* quoted text and arguments are not commands */
      SP("RUN echo \"apt-get install foo\""),
      SP("RUN echo 'apt-get install foo'"),
      SP("RUN echo apt-get install foo"),
      /* a comment inside a continuation */
      SP("RUN apt-get update && \\\n # apt-get install foo\n apt-get install -y x && rm -rf /var/lib/apt/lists/*"),
      /* heredoc bodies that are data */
      SP("RUN cat <<EOF > /etc/notes\napt-get install foo\nEOF"),
      SP("RUN python3 <<EOF\nimport os  # apt-get install foo\nEOF"),
      /* -y spelled otherwise */
      SP("RUN apt-get install --yes curl"),
      SP("RUN apt-get install --assume-yes curl"),
      SP("RUN apt-get -qy install curl"),
      SP("RUN apt-get -yq install curl"),
      SP("RUN apt-get -qq install curl"),
      SP("RUN apt-get install curl git -y"),
      SP("RUN apt-get install curl \\\n    git \\\n    -y"),
      SP("RUN apt-get -o APT::Get::Assume-Yes=true install curl"),
      SP("RUN apt-get --option=APT::Get::Assume-Yes=true install curl"),
      SP("RUN apt install -y curl"),
      /* not an install */
      SP("RUN apt-get update && rm -rf /var/lib/apt/lists/*"),
      SP("RUN apt-cache policy curl"),
      SP("RUN dpkg -i /tmp/x.deb"),
      SP("RUN apt-get download curl"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  NONE("apt-get-missing-yes");
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.3: pip-no-cache-dir
 *============================================================================================*/

START_TEST(test_pip_fires) {
  CMD("RUN pip install torch");
  const boxlint_diag *d = EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 16, "pip install");
  HINT(d, "--no-cache-dir");
  TOTAL(1);
  CMD("RUN pip3 install torch");
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 17, "pip install");
  CMD("RUN python3 -m pip install torch");
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 27, "pip install");
  CMD("RUN python -m pip install -U pip");
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 26, "pip install");
  CMD("RUN /opt/conda/bin/pip install numpy");
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 31, "pip install");
  CMD("RUN pip3.11 install numpy");
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 20, "pip install");
  CMD("RUN pip --disable-pip-version-check install numpy");
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 44, "pip install");
  CMD("RUN apt-get install -y python3-pip && \\\n    pip install \\\n      torch");
  EXPECT("pip-no-cache-dir", W, 0, 2, 5, 2, 16, "pip install");
  TOTAL(1);
  /* In a heredoc script. */
  CMD("RUN <<EOF\npip install torch\nEOF");
  EXPECT("pip-no-cache-dir", W, 0, 2, 1, 2, 12, "pip install");
  /* ENV PIP_NO_CACHE_DIR after the install does not help the earlier one. */
  CMDS(SP("RUN pip install a"), SP("ENV PIP_NO_CACHE_DIR=1"), SP("RUN pip install b"));
  EXPECT("pip-no-cache-dir", W, 0, 1, 5, 1, 16, "pip install");
  TOTAL(1);
}
END_TEST

START_TEST(test_pip_not_fired) {
  static const boxlint_span ok[] = {
      SP("RUN pip install --no-cache-dir torch"),
      SP("RUN pip install torch --no-cache-dir"),
      SP("RUN pip --no-cache-dir install torch"),
      SP("RUN python3 -m pip install --no-cache-dir torch"),
      SP("RUN pip3 install --no-cache-dir -r https://example.com/req.txt"),
      SP("RUN echo \"pip install torch\""),
      SP("RUN pip download torch"),
      SP("RUN pip uninstall -y torch"),
      SP("RUN pip list"),
      SP("RUN cat <<EOF > /tmp/README\npip install torch\nEOF"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
  /* ENV PIP_NO_CACHE_DIR earlier in the template: pip reads it, no cache. Both ENV forms. */
  CMDS(SP("ENV PIP_NO_CACHE_DIR=1"), SP("RUN pip install torch"), SP("RUN python3 -m pip install x"));
  TOTAL(0);
  CMDS(SP("ENV PIP_NO_CACHE_DIR 1"), SP("RUN pip3 install torch"));
  TOTAL(0);
  CMDS(SP("ENV A=1 PIP_NO_CACHE_DIR=off"), SP("RUN pip install torch"));
  TOTAL(0);
}
END_TEST

START_TEST(test_pip_env_reset_by_from) {
  FRAG("ENV PIP_NO_CACHE_DIR=1\nFROM python:3.12\nRUN pip install torch\n");
  EXPECT("pip-no-cache-dir", W, 2, 3, 5, 3, 16, "pip install");
  FRAG("ENV PIP_NO_CACHE_DIR=1\nRUN pip install torch\n");
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.3: apt-lists-not-cleaned
 *============================================================================================*/

START_TEST(test_apt_lists_fires) {
  CMD("RUN apt-get update && apt-get install -y curl");
  const boxlint_diag *d = EXPECT("apt-lists-not-cleaned", W, 0, 1, 5, 1, 19, "apt-get update");
  HINT(d, "rm -rf /var/lib/apt/lists/*");
  TOTAL(1);
  CMD("RUN apt update && apt install -y curl");
  EXPECT("apt-lists-not-cleaned", W, 0, 1, 5, 1, 15, "update");
  /* apt-get clean keeps the lists. */
  CMD("RUN apt-get update && apt-get install -y curl && apt-get clean");
  EXPECT("apt-lists-not-cleaned", W, 0, 1, 5, 1, 19, "update");
  /* Removing them in a later RUN does not take them out of this layer. */
  CMDS(SP("RUN apt-get update && apt-get install -y curl"), SP("RUN rm -rf /var/lib/apt/lists/*"));
  EXPECT("apt-lists-not-cleaned", W, 0, 1, 5, 1, 19, "update");
  TOTAL(1);
  /* A cache mount of something else does not help. */
  CMD("RUN --mount=type=cache,target=/root/.cache apt-get update && apt-get install -y curl");
  EXPECT("apt-lists-not-cleaned", W, 0, 1, 44, 1, 58, "update");
  /* Continuation: positions on line 2. */
  CMD("RUN set -eux; \\\n    apt-get update; \\\n    apt-get install -y curl");
  EXPECT("apt-lists-not-cleaned", W, 0, 2, 5, 2, 19, "update");
  /* A heredoc script. */
  CMD("RUN <<EOF\napt-get update\napt-get install -y curl\nEOF");
  ck_assert_uint_eq(count_rule("apt-lists-not-cleaned"), 1);
  TOTAL(1);
}
END_TEST

START_TEST(test_apt_lists_not_fired) {
  static const boxlint_span ok[] = {
      SP("RUN apt-get update && apt-get install -y curl && rm -rf /var/lib/apt/lists/*"),
      SP("RUN apt-get update && apt-get install -y curl && apt-get dist-clean"),
      SP("RUN apt-get update \\\n && apt-get install -y curl \\\n && rm -rf /var/lib/apt/lists/* /tmp/*"),
      SP("RUN --mount=type=cache,target=/var/lib/apt/lists apt-get update && apt-get install -y curl"),
      SP("RUN --mount=type=cache,target=/var/lib/apt/lists,sharing=locked \\\n    apt-get update && apt-get install -y curl"),
      SP("RUN apt-get install -y curl"), /* no update: no lists downloaded here */
      SP("RUN echo \"apt-get update\""),
      SP("RUN cat <<EOF > /etc/notes\napt-get update\nEOF"),
      SP("RUN <<EOF\napt-get update\napt-get install -y curl\nrm -rf /var/lib/apt/lists/*\nEOF"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * apt-get-upgrade (boxlint's own)
 *============================================================================================*/

START_TEST(test_apt_upgrade) {
  CMD("RUN apt-get update && apt-get upgrade -y && rm -rf /var/lib/apt/lists/*");
  const boxlint_diag *d = EXPECT("apt-get-upgrade", W, 0, 1, 23, 1, 38, "upgrades every package");
  ck_assert_ptr_nonnull(d->hint);
  TOTAL(1);
  CMD("RUN apt-get -y dist-upgrade");
  EXPECT("apt-get-upgrade", W, 0, 1, 5, 1, 28, "apt-get");
  TOTAL(1);
  CMD("RUN apt full-upgrade -y");
  EXPECT("apt-get-upgrade", W, 0, 1, 5, 1, 21, "apt");
  /* Without -y it is also missing -y. */
  CMD("RUN apt-get upgrade");
  EXPECT("apt-get-upgrade", W, 0, 1, 5, 1, 20, "upgrades");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 20, "without -y");
  TOTAL(2);

  static const boxlint_span ok[] = {
      SP("RUN apt-get install -y unattended-upgrades"),
      SP("RUN apt-get install -y --only-upgrade curl"),
      SP("RUN echo \"apt-get upgrade -y\""),
      SP("RUN pip install --no-cache-dir --upgrade pip"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.3: curl-pipe-shell
 *============================================================================================*/

START_TEST(test_curl_pipe_shell) {
  CMD("RUN curl -fsSL https://x.example/i.sh | sh");
  const boxlint_diag *d = EXPECT("curl-pipe-shell", W, 0, 1, 5, 1, 43, "piped into sh");
  HINT(d, "sha256sum");
  TOTAL(1);
  CMD("RUN curl -fsSL https://x.example/i.sh | bash -s -- --yes");
  EXPECT("curl-pipe-shell", W, 0, 1, 5, 1, 45, "bash");
  CMD("RUN curl -fsSL https://x.example/i.sh|sh");
  EXPECT("curl-pipe-shell", W, 0, 1, 5, 1, 41, "sh");
  CMD("RUN curl -fsSL https://x.example/i.py | python3");
  EXPECT("curl-pipe-shell", W, 0, 1, 5, 1, 48, "python3");
  CMD("RUN wget -qO- https://x.example/i.sh | sudo -E bash -");
  EXPECT("curl-pipe-shell", W, 0, 1, 5, 1, 52, "bash");
  EXPECT("sudo-usage", W, 0, 1, 40, 1, 44, "sudo");
  TOTAL(2);
  /* Continuation, and a later stage of an && list. */
  CMD("RUN apt-get install -y curl && \\\n    curl -fsSL https://x.example/i.sh \\\n    | bash");
  EXPECT("curl-pipe-shell", W, 0, 2, 5, 3, 11, "bash");
  /* A heredoc script. */
  CMD("RUN <<EOF\ncurl -fsSL https://x.example/i.sh | sh\nEOF");
  EXPECT("curl-pipe-shell", W, 0, 2, 1, 2, 39, "sh");

  static const boxlint_span ok[] = {
      SP("RUN curl -fsSL https://x.example/a.tgz | tar -xz -C /opt"),
      SP("RUN curl -fsSLo /tmp/i.sh https://x.example/i.sh && sh /tmp/i.sh"),
      SP("RUN echo \"curl -fsSL https://x.example/i.sh | sh\""),
      SP("RUN curl -fsSL https://x.example/key.asc | gpg --dearmor -o /usr/share/keyrings/x.gpg"),
      SP("RUN cat <<EOF > /opt/README\ncurl -fsSL https://x.example/i.sh | sh\nEOF"),
      SP("RUN curl -fsSL https://x.example/i.sh -o i.sh; sh i.sh"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.3: sudo-usage
 *============================================================================================*/

START_TEST(test_sudo_usage) {
  CMD("RUN sudo apt-get install -y curl");
  const boxlint_diag *d = EXPECT("sudo-usage", W, 0, 1, 5, 1, 9, "sudo");
  ck_assert(contains(d->message, "root"));
  TOTAL(1);
  CMD("RUN /usr/bin/sudo -u app pip install --no-cache-dir x");
  EXPECT("sudo-usage", W, 0, 1, 5, 1, 18, "sudo");
  TOTAL(1);
  CMD("RUN true && \\\n  sudo systemctl enable redis");
  EXPECT("sudo-usage", W, 0, 2, 3, 2, 7, "sudo");
  TOTAL(1);
  /* sudo does not hide the command behind it from the other rules. */
  CMD("RUN sudo pip install x");
  EXPECT("sudo-usage", W, 0, 1, 5, 1, 9, "sudo");
  EXPECT("pip-no-cache-dir", W, 0, 1, 10, 1, 21, "pip install");
  TOTAL(2);

  static const boxlint_span ok[] = {
      SP("RUN apt-get install -y sudo"),
      SP("RUN usermod -aG sudo app"),
      SP("RUN echo \"%sudo ALL=(ALL) NOPASSWD:ALL\" >> /etc/sudoers"),
      SP("RUN echo sudo"),
      SP("RUN cat <<EOF > /etc/sudoers.d/app\napp ALL=(ALL) NOPASSWD: ALL\nEOF"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * systemctl-in-build (boxlint's own)
 *============================================================================================*/

START_TEST(test_systemctl_in_build) {
  CMD("RUN systemctl start redis-server");
  const boxlint_diag *d = EXPECT("systemctl-in-build", W, 0, 1, 5, 1, 20, "systemctl start");
  HINT(d, "systemctl enable");
  TOTAL(1);
  CMD("RUN systemctl daemon-reload");
  EXPECT("systemctl-in-build", W, 0, 1, 5, 1, 28, "daemon-reload");
  CMD("RUN systemctl --quiet restart jupyter");
  EXPECT("systemctl-in-build", W, 0, 1, 5, 1, 30, "restart");
  CMD("RUN systemctl enable redis && systemctl status redis");
  EXPECT("systemctl-in-build", W, 0, 1, 31, 1, 47, "status");
  TOTAL(1);

  static const boxlint_span ok[] = {
      SP("RUN systemctl enable redis-server"),
      SP("RUN systemctl disable apt-daily.timer && systemctl mask apt-daily.service"),
      SP("RUN echo systemctl start redis"),
      SP("RUN echo \"systemctl restart x\" > /tmp/x"),
      SP("RUN cat <<EOF > /usr/local/bin/restart-jupyter\nsystemctl restart jupyter\nEOF"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * docs/design.md §2.3: run-mount-context, run-mount-from-image; run-insecure (boxlint's own)
 *============================================================================================*/

START_TEST(test_run_mount_context) {
  CMD("RUN --mount=target=/src make -C /src");
  const boxlint_diag *d = EXPECT("run-mount-context", W, 0, 1, 5, 1, 24, "build context");
  ck_assert_ptr_nonnull(d->hint);
  TOTAL(1);
  CMD("RUN --mount=type=bind,source=.,target=/src make");
  EXPECT("run-mount-context", W, 0, 1, 5, 1, 43, "bind");
  /* The second of two mounts. */
  CMD("RUN --mount=type=cache,target=/root/.cache/pip --mount=target=/src make");
  EXPECT("run-mount-context", W, 0, 1, 48, 1, 67, "bind");
  TOTAL(1);

  static const boxlint_span ok[] = {
      SP("RUN --mount=type=cache,target=/root/.cache make"),
      SP("RUN --mount=type=tmpfs,target=/tmp make"),
      SP("RUN --mount=type=secret,id=tok cat /run/secrets/tok"),
      SP("RUN --mount=type=ssh git clone git@github.com:o/r.git"),
      SP("RUN echo --mount=target=/src"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

START_TEST(test_run_mount_from_image) {
  CMD("RUN --mount=from=alpine,target=/a cp /a/bin/x /usr/bin/");
  const boxlint_diag *d = EXPECT("run-mount-from-image", W, 0, 1, 5, 1, 34, "from=alpine");
  ck_assert_ptr_nonnull(d->hint);
  TOTAL(1); /* not also run-mount-context: it reads the image, not the context */
  CMD("RUN --mount=type=bind,from=python:3.12,target=/py ls /py");
  EXPECT("run-mount-from-image", W, 0, 1, 5, 1, 50, "python:3.12");
  TOTAL(1);
  CMD("RUN --network=none --mount=type=cache,from=builder,target=/c ls");
  EXPECT("run-mount-from-image", W, 0, 1, 20, 1, 61, "builder");
  TOTAL(1);

  CMD("RUN --mount=type=cache,target=/root/.cache,id=from ls");
  TOTAL(0);
}
END_TEST

START_TEST(test_run_insecure) {
  CMD("RUN --network=host curl -fsSLo /x https://x.example/x");
  const boxlint_diag *d = EXPECT("run-insecure", W, 0, 1, 5, 1, 19, "--network=host");
  HINT(d, "remove");
  TOTAL(1);
  CMD("RUN --security=insecure mount -t tmpfs none /mnt");
  EXPECT("run-insecure", W, 0, 1, 5, 1, 24, "--security=insecure");
  TOTAL(1);

  static const boxlint_span ok[] = {
      SP("RUN --network=none make"),
      SP("RUN --network=default make"),
      SP("RUN --security=sandbox make"),
      SP("RUN echo --network=host"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * env-overrides-runtime, healthcheck-in-template, workdir-relative (boxlint's own)
 *============================================================================================*/

START_TEST(test_env_overrides_runtime) {
  CMD("ENV PATH=/opt/conda/bin");
  const boxlint_diag *d = EXPECT("env-overrides-runtime", W, 0, 1, 5, 1, 24, "ENV PATH");
  HINT(d, "$PATH");
  TOTAL(1);
  CMD("ENV PATH /opt/bin");
  EXPECT("env-overrides-runtime", W, 0, 1, 5, 1, 18, "PATH");
  CMD("ENV LD_PRELOAD=/usr/lib/libjemalloc.so");
  EXPECT("env-overrides-runtime", W, 0, 1, 5, 1, 39, "LD_PRELOAD");
  CMD("ENV A=1 PYTHONHOME=/opt/py");
  EXPECT("env-overrides-runtime", W, 0, 1, 9, 1, 27, "PYTHONHOME");
  TOTAL(1);
  CMD("ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64");
  EXPECT("env-overrides-runtime", W, 0, 1, 5, 1, 42, "LD_LIBRARY_PATH");

  static const boxlint_span ok[] = {
      SP("ENV PATH=/opt/conda/bin:$PATH"),
      SP("ENV PATH=\"/opt/conda/bin:${PATH}\""),
      SP("ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH"),
      SP("ENV MYPATH=/opt"),
      SP("RUN export PATH=/opt/bin"),
      SP("ARG PATH=/opt/bin"),
      SP("LABEL PATH=/opt/bin"),
  };
  run_spans(ok, sizeof ok / sizeof ok[0]);
  TOTAL(0);
}
END_TEST

START_TEST(test_healthcheck_in_template) {
  CMD("HEALTHCHECK --interval=5s CMD curl -f http://localhost:8888/");
  const boxlint_diag *d = EXPECT("healthcheck-in-template", W, 0, 1, 1, 1, 61, "HEALTHCHECK");
  ck_assert_ptr_nonnull(d->hint);
  TOTAL(1);
  CMD("healthcheck CMD true");
  EXPECT("healthcheck-in-template", W, 0, 1, 1, 1, 21, "HEALTHCHECK");

  CMD("HEALTHCHECK NONE");
  TOTAL(0);
  CMD("healthcheck none");
  TOTAL(0);
  CMD("RUN echo HEALTHCHECK CMD true");
  TOTAL(0);
}
END_TEST

START_TEST(test_workdir_relative) {
  CMD("WORKDIR app");
  const boxlint_diag *d = EXPECT("workdir-relative", W, 0, 1, 9, 1, 12, "app");
  HINT(d, "/home/user/");
  TOTAL(1);
  CMD("WORKDIR src/app");
  EXPECT("workdir-relative", W, 0, 1, 9, 1, 16, "src/app");
  CMD("WORKDIR ../x");
  EXPECT("workdir-relative", W, 0, 1, 9, 1, 13, "../x");

  CMDS(SP("WORKDIR /app"), SP("WORKDIR $HOME/app"), SP("WORKDIR ${APP_DIR}"), SP("RUN cd app"));
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * Errors-only mode: no config, no warnings
 *============================================================================================*/

static const boxlint_span EVERY_WARNING[] = {
    SP("STOPSIGNAL SIGTERM"),
    SP("RUN sudo apt-get update && apt-get upgrade && pip install x && curl -fsSL https://x.example/i | sh"),
    SP("RUN systemctl start x"),
    SP("RUN --mount=target=/s --mount=from=alpine,target=/a --network=host true"),
    SP("ENV PATH=/x API_TOKEN=abcdef123456"),
    SP("RUN git clone https://u:hunter22@git.example.com/r " GHP),
    SP("HEALTHCHECK CMD true"),
    SP("WORKDIR app"),
    SP("RUN <<EOF\napt-get install curl\nEOF"),
    SP("USER app"),
};

START_TEST(test_errors_only_mode) {
  /* With the config every rule fires at least once ... */
  run_spans(EVERY_WARNING, sizeof EVERY_WARNING / sizeof EVERY_WARNING[0]);
  static const char *const all[] = {
      "final-user-not-root", "stopsignal-overrides-systemd", "apt-get-missing-yes",
      "pip-no-cache-dir", "apt-lists-not-cleaned", "curl-pipe-shell", "secret-in-command",
      "run-mount-context", "run-mount-from-image", "sudo-usage", "systemctl-in-build",
      "apt-get-upgrade", "env-overrides-runtime", "healthcheck-in-template", "run-insecure",
      "workdir-relative"};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    if (!count_rule(all[i])) dump_report();
    ck_assert_msg(count_rule(all[i]) > 0, "%s does not fire on EVERY_WARNING", all[i]);
  }
  NO_LEAK("hunter22");
  NO_LEAK(GHP);
  ck_assert_uint_eq(boxlint_report_count_at_least(R, E), 0);

  /* ... and without one, nothing. */
  OPTS.config = NULL;
  run_spans(EVERY_WARNING, sizeof EVERY_WARNING / sizeof EVERY_WARNING[0]);
  TOTAL(0);
  ck_assert_uint_eq(boxlint_report_instruction_count(R),
                    sizeof EVERY_WARNING / sizeof EVERY_WARNING[0]);
  /* Errors are the same with and without a config. */
  static const boxlint_span errs[] = {SP("FROM ubuntu"), SP("RUN sudo true\nUSER app"), SP("WORKDIR")};
  run_spans(errs, 3);
  size_t n = boxlint_report_diag_count(R);
  ck_assert_uint_gt(n, 0);
  NO_WARNINGS();
  OPTS.config = CFG;
  run_spans(errs, 3);
  ck_assert_uint_eq(boxlint_report_count_at_least(R, E), n);
  /* Fragments too. */
  OPTS.config = NULL;
  FRAG("USER app\nRUN sudo pip install x\nSTOPSIGNAL 9\n");
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * Known bugs (run with BOXLINT_KNOWN_BUGS=1)
 *============================================================================================*/

/* apt-get options that take a separate value (-o, -t, -c) are read as the verb, so the verb is
 * never found: install without -y and upgrade are missed. */
START_TEST(kb_apt_option_value_taken_as_verb) {
  CMD("RUN apt-get -o Dpkg::Options::=--force-confold install curl");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 55, "without -y");
  CMD("RUN apt-get -t bookworm-backports install curl");
  EXPECT("apt-get-missing-yes", W, 0, 1, 5, 1, 42, "without -y");
  CMD("RUN apt-get -o Dpkg::Options::=--force-confnew -y dist-upgrade");
  EXPECT("apt-get-upgrade", W, 0, 1, 5, 1, 63, "upgrades");
}
END_TEST

/* `RUN <<EOF cat > /x` is not a heredoc script: BuildKit runs `<<EOF cat > /x` with the body as
 * cat's stdin (only a command line that is exactly the heredoc makes the body the script). */
START_TEST(kb_heredoc_opener_with_command_is_data) {
  CMD("RUN <<EOF cat > /etc/notes\napt-get install foo\nEOF");
  NONE("apt-get-missing-yes");
  TOTAL(0);
}
END_TEST

/* PIP_NO_CACHE_DIR given to pip in the same command does what ENV PIP_NO_CACHE_DIR=1 does,
 * which the rule's own hint offers. */
START_TEST(kb_pip_inline_env) {
  CMD("RUN PIP_NO_CACHE_DIR=1 pip install torch");
  NONE("pip-no-cache-dir");
}
END_TEST

/* A cache mount on pip's cache keeps it out of the image, as the apt lists cache mount does. */
START_TEST(kb_pip_cache_mount) {
  CMD("RUN --mount=type=cache,target=/root/.cache/pip pip install torch");
  NONE("pip-no-cache-dir");
}
END_TEST

/* Exec form runs the program without a shell, but it still runs apt-get / pip. */
START_TEST(kb_exec_form_run) {
  CMD("RUN [\"apt-get\", \"install\", \"curl\"]");
  ck_assert_uint_eq(count_rule("apt-get-missing-yes"), 1);
  CMD("RUN [\"pip\", \"install\", \"torch\"]");
  ck_assert_uint_eq(count_rule("pip-no-cache-dir"), 1);
}
END_TEST

/* ONBUILD USER root does not change this image's user: it runs in a later build. */
START_TEST(kb_onbuild_user) {
  CMDS(SP("USER app"), SP("ONBUILD USER root"));
  EXPECT("final-user-not-root", W, 0, 1, 6, 1, 9, "app");
}
END_TEST

/* BuildKit expands USER and WORKDIR with its shell lexer, which removes quotes. */
START_TEST(kb_quoted_user_workdir) {
  CMDS(SP("USER app"), SP("USER \"root\""));
  NONE("final-user-not-root");
  CMD("WORKDIR \"/app\"");
  NONE("workdir-relative");
}
END_TEST

/* Docker parses STOPSIGNAL case-insensitively and with or without SIG: RTMIN+3 is SIGRTMIN+3. */
START_TEST(kb_stopsignal_spellings) {
  CMD("STOPSIGNAL RTMIN+3");
  NONE("stopsignal-overrides-systemd");
  CMD("STOPSIGNAL sigrtmin+3");
  NONE("stopsignal-overrides-systemd");
}
END_TEST

/* A token found later in the command hides an earlier URL password or assignment: the dedup
 * ("one report per stretch of text") compares against the end of the last report of any
 * pattern, not against overlapping text. */
START_TEST(kb_secret_hidden_by_later_token) {
  CMD("RUN curl https://alice:hunter22@git.example.com/x && echo " AWS);
  ck_assert_uint_eq(count_rule("secret-in-command"), 2);
  EXPECT("secret-in-command", W, 0, 1, 24, 1, 32, "password in a URL");
  CMD("RUN mysql --password=hunter2secret && echo " AWS);
  ck_assert_uint_eq(count_rule("secret-in-command"), 2);
  EXPECT("secret-in-command", W, 0, 1, 22, 1, 35, "credential");
}
END_TEST

/* A URL whose password is a variable holds no secret, like password=$PASSWORD. */
START_TEST(kb_secret_url_variable_password) {
  CMD("RUN pip install --no-cache-dir --index-url=https://user:${PIP_TOKEN}@pypi.example.com/simple x");
  NONE("secret-in-command");
  CMD("RUN git clone https://oauth2:$GL_TOKEN@gitlab.example.com/o/r.git");
  NONE("secret-in-command");
}
END_TEST

/* PWD is the shell's working directory, not a password. */
START_TEST(kb_secret_env_pwd) {
  CMD("ENV PWD=/workspace");
  NONE("secret-in-command");
}
END_TEST

/* A command without RUN is an unknown-instruction error whose hint quotes the command, secret
 * included; and no secret-in-command is reported for it. The secret is printed. */
START_TEST(kb_secret_leak_in_unknown_instruction_hint) {
  CMD("pip install --index-url=https://u:s3cretPass@pypi.example.com/simple pkg");
  NO_LEAK("s3cretPass");
}
END_TEST

/* Without a config no warning runs, so every suppression is reported as "suppresses nothing":
 * a warning in the errors-only mode, and a false one (sudo-usage would have fired). */
START_TEST(kb_unused_suppression_without_config) {
  OPTS.config = NULL;
  FRAG("# boxlint ignore=sudo-usage -- legacy\nRUN sudo true\n");
  TOTAL(0);
}
END_TEST

/* A suppression of final-user-not-root before the USER it is reported on does not work (the
 * rule is emitted after the suppressions were applied) and is itself reported as unused. */
START_TEST(kb_suppress_final_user) {
  FRAG("RUN true\n# boxlint ignore=final-user-not-root -- services run as app\nUSER app\n");
  TOTAL(0);
}
END_TEST

/*==============================================================================================
 * Suite
 *============================================================================================*/

static Suite *warnings_suite(void) {
  Suite *s = suite_create("warnings");
  TCase *tc;

  tc = tcase_create("template_wide");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_final_user_fires);
  tcase_add_test(tc, test_final_user_not_fired);
  tcase_add_test(tc, test_final_user_fragment);
  tcase_add_test(tc, test_stopsignal);
  suite_add_tcase(s, tc);

  tc = tcase_create("apt_pip");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_apt_missing_yes_fires);
  tcase_add_test(tc, test_apt_missing_yes_heredoc_script);
  tcase_add_test(tc, test_apt_missing_yes_not_fired);
  tcase_add_test(tc, test_pip_fires);
  tcase_add_test(tc, test_pip_not_fired);
  tcase_add_test(tc, test_pip_env_reset_by_from);
  tcase_add_test(tc, test_apt_lists_fires);
  tcase_add_test(tc, test_apt_lists_not_fired);
  tcase_add_test(tc, test_apt_upgrade);
  suite_add_tcase(s, tc);

  tc = tcase_create("run");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_curl_pipe_shell);
  tcase_add_test(tc, test_sudo_usage);
  tcase_add_test(tc, test_systemctl_in_build);
  tcase_add_test(tc, test_run_mount_context);
  tcase_add_test(tc, test_run_mount_from_image);
  tcase_add_test(tc, test_run_insecure);
  suite_add_tcase(s, tc);

  tc = tcase_create("other_instructions");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_env_overrides_runtime);
  tcase_add_test(tc, test_healthcheck_in_template);
  tcase_add_test(tc, test_workdir_relative);
  suite_add_tcase(s, tc);
  warnings_add_secrets(s);
  warnings_add_config(s);

  tc = tcase_create("errors_only");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_errors_only_mode);
  suite_add_tcase(s, tc);

  const char *kb = "1"; /* the known bugs are fixed: they run as regressions */
  if (kb && !strcmp(kb, "1")) {
    tc = tcase_create("known_bugs");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, kb_apt_option_value_taken_as_verb);
    tcase_add_test(tc, kb_heredoc_opener_with_command_is_data);
    tcase_add_test(tc, kb_pip_inline_env);
    tcase_add_test(tc, kb_pip_cache_mount);
    tcase_add_test(tc, kb_exec_form_run);
    tcase_add_test(tc, kb_onbuild_user);
    tcase_add_test(tc, kb_quoted_user_workdir);
    tcase_add_test(tc, kb_stopsignal_spellings);
    tcase_add_test(tc, kb_secret_hidden_by_later_token);
    tcase_add_test(tc, kb_secret_url_variable_password);
    tcase_add_test(tc, kb_secret_env_pwd);
    tcase_add_test(tc, kb_secret_leak_in_unknown_instruction_hint);
    tcase_add_test(tc, kb_suppress_final_user);
    tcase_add_test(tc, kb_unused_suppression_without_config);
    suite_add_tcase(s, tc);
  }
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(warnings_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
