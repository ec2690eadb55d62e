<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>Deploy</name>
    <message numerus="yes">
        <location filename="../../backend/deploy/deploypreflight.cpp" line="+211"/>
        <source>%n services of TP %1 (%2) behind the SGLang Router on port %3 (--policy %4)</source>
        <translation>
            <numerusform>%n service of TP %1 (%2) behind the SGLang Router on port %3 (--policy %4)</numerusform>
            <numerusform>%n services of TP %1 (%2) behind the SGLang Router on port %3 (--policy %4)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FleetPage</name>
    <message numerus="yes">
        <location filename="../../ui/pages/fleetpage.cpp" line="+243"/>
        <source>%n host(s)</source>
        <translation>
            <numerusform>%n host</numerusform>
            <numerusform>%n hosts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n GPU</numerusform>
            <numerusform>%n GPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n alert(s)</source>
        <translation>
            <numerusform>%n alert</numerusform>
            <numerusform>%n alerts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>Figures from Prometheus at %1 for %n host(s)</source>
        <translation>
            <numerusform>Figures from Prometheus at %1 for %n host</numerusform>
            <numerusform>Figures from Prometheus at %1 for %n hosts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>, over SSH for %n</source>
        <translation>
            <numerusform>, over SSH for %n</numerusform>
            <numerusform>, over SSH for %n</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LogPanel</name>
    <message numerus="yes">
        <location filename="../../ui/logs/logpanel.cpp" line="+344"/>
        <source> · resumed %n time(s) without losing or repeating a line</source>
        <translation>
            <numerusform> · resumed %n time without losing or repeating a line</numerusform>
            <numerusform> · resumed %n times without losing or repeating a line</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <location filename="../../ui/mainwindowhosts.cpp" line="+135"/>
        <source>%n host(s) in the inventory</source>
        <translation>
            <numerusform>%n host in the inventory</numerusform>
            <numerusform>%n hosts in the inventory</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MetricsPage</name>
    <message numerus="yes">
        <location filename="../../ui/pages/metricspage.cpp" line="+329"/>
        <source>charts from Prometheus (%n series; a metric it lacks is drawn from what Flashdeck sampled over SSH)</source>
        <translation>
            <numerusform>charts from Prometheus (%n series; a metric it lacks is drawn from what Flashdeck sampled over SSH)</numerusform>
            <numerusform>charts from Prometheus (%n series; a metric it lacks is drawn from what Flashdeck sampled over SSH)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PrometheusBox</name>
    <message numerus="yes">
        <location filename="../../ui/fleet/prometheusbox.cpp" line="+200"/>
        <source>Prometheus answers: %n host(s) in %1 ms.</source>
        <translation>
            <numerusform>Prometheus answers: %n host in %1 ms.</numerusform>
            <numerusform>Prometheus answers: %n hosts in %1 ms.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>UpgradeDialog</name>
    <message numerus="yes">
        <location filename="../../ui/deploy/upgradedialog.cpp" line="+53"/>
        <source>Upgrade %n hosts</source>
        <translation>
            <numerusform>Upgrade %n host</numerusform>
            <numerusform>Upgrade %n hosts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>UpgradePanel</name>
    <message numerus="yes">
        <location filename="../../ui/fleet/upgradepanel.cpp" line="+101"/>
        <source>&lt;b&gt;Upgrade&lt;/b&gt; — %n host(s), %1 at a time; none starts after one that rolls back</source>
        <translation>
            <numerusform>&lt;b&gt;Upgrade&lt;/b&gt; — %n host, %1 at a time; none starts after one that rolls back</numerusform>
            <numerusform>&lt;b&gt;Upgrade&lt;/b&gt; — %n hosts, %1 at a time; none starts after one that rolls back</numerusform>
        </translation>
    </message>
</context>
</TS>
