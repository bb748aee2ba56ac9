# A template written as a Dockerfile fragment.
RUN apt-get update && \
    # comments inside continuations are skipped, as BuildKit does
    apt-get install -y curl

RUN <<EOF cat > /etc/motd
hello
EOF
ENV A=1
COPY x /y
